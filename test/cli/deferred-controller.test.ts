// telecode run's controller while the terminal's view is still loading: nothing the CLI says
// before it is ready is lost or reordered, and an approval asked meanwhile is answered by it.
import { describe, expect, it } from "vitest";
import type { DecideContext, SessionController } from "../../src/claude/index.js";
import { deferredController } from "../../src/cli/deferred-controller.js";
import type { ApprovalRequest, TelecodeEvent } from "../../src/domain/index.js";

const note = (text: string): TelecodeEvent => ({ type: "note", kind: "info", text });

describe("the deferred controller of telecode run", () => {
  it("hands events seen before it is ready to the real controller in order, then an approval waits for it", async () => {
    const seen: string[] = [];
    const real: SessionController = {
      observe: (event) => seen.push(event.type === "note" ? event.text : event.type),
      decide: (request) => {
        seen.push(`decide ${request.requestId}`);
        return Promise.resolve({ behavior: "deny", message: "no" });
      },
    };
    let load: (c: SessionController) => void = () => undefined;
    const controller = deferredController(new Promise((resolve) => (load = resolve)));
    controller.observe?.(note("first"));
    controller.observe?.(note("second"));
    const request: ApprovalRequest = {
      requestId: "r-1",
      toolName: "Bash",
      input: { command: "ls" },
      permissionSuggestions: [],
    };
    const decision = controller.decide(request, {} as DecideContext);
    expect(seen).toEqual([]);

    load(real);
    expect(await decision).toEqual({ behavior: "deny", message: "no" });
    controller.observe?.(note("third"));
    expect(seen).toEqual(["first", "second", "decide r-1", "third"]);
  });
});
