// A session controller whose real one is still loading (telecode run loads the terminal's
// progress and prompts while the CLI starts). Events seen before it is ready are handed to it
// in order once it is; requests and hooks wait for it. Nothing is dropped or reordered.
import type { SessionController } from "../claude/index.js";
import type { TelecodeEvent } from "../domain/index.js";

/** The controller `ready` resolves to, usable at once. */
export function deferredController(ready: Promise<SessionController>): SessionController {
  let loaded: SessionController | undefined;
  let early: TelecodeEvent[] = [];
  // Registered first, so it runs before any request below that awaits `ready`.
  void ready.then(
    (controller) => {
      loaded = controller;
      for (const event of early) controller.observe?.(event);
      early = [];
    },
    () => undefined,
  );
  return {
    observe(event) {
      if (loaded !== undefined) loaded.observe?.(event);
      else early.push(event);
    },
    decide: async (request, ctx) => (await ready).decide(request, ctx),
    async hookCallback(id, input, signal) {
      const controller = await ready;
      return controller.hookCallback === undefined ? {} : controller.hookCallback(id, input, signal);
    },
    async beforeTurnFinished(ctx) {
      await (await ready).beforeTurnFinished?.(ctx);
    },
  };
}
