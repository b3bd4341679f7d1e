// The way out for a session handle's events: each goes to the controller's observe (in stream
// order, before anyone else), then into the one consumer's queue, then to the handle's own
// bookkeeping. A turn_finished waits for the controller's beforeTurnFinished hook first.
import type { TelecodeEvent, TurnFinished } from "../domain/index.js";
import type { Logger } from "../ports/index.js";
import { EventQueue } from "./event-queue.js";
import type { SessionController, SessionControls } from "./spec.js";

export type HandleEventsOptions = {
  controller: SessionController;
  session: SessionControls;
  logger: Logger;
  /** The handle's own bookkeeping, after the event was queued. */
  onEmitted: (event: TelecodeEvent) => void;
  /** The queue filled (true) or drained (false): stop or resume reading the CLI. */
  onPressure: (full: boolean) => void;
  /** The consumer stopped iterating early. */
  onAbandon: () => void;
};

export class HandleEvents {
  readonly #options: HandleEventsOptions;
  readonly #queue: EventQueue<TelecodeEvent>;

  constructor(options: HandleEventsOptions) {
    this.#options = options;
    this.#queue = new EventQueue<TelecodeEvent>({ onPressure: options.onPressure, onAbandon: options.onAbandon });
  }

  /** The one consumer's iterator. */
  iterate(): AsyncIterable<TelecodeEvent> {
    return this.#queue.iterate();
  }

  /** No more events; the consumer finishes after the ones queued. */
  end(): void {
    this.#queue.end();
  }

  /**
   * Emits events in order; returns a promise only while a beforeTurnFinished hook is awaited.
   * `seen`: replayed events a previous Telecode processed, whose turns' hooks already ran.
   */
  emitAll(events: readonly TelecodeEvent[], seen = false): Promise<void> | undefined {
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as TelecodeEvent;
      if (event.type === "turn_finished" && !seen && this.#options.controller.beforeTurnFinished !== undefined) {
        return this.#finishTurn(event, events.slice(i + 1));
      }
      this.emit(event);
    }
    return undefined;
  }

  emit(event: TelecodeEvent): void {
    try {
      this.#options.controller.observe?.(event);
    } catch (error) {
      this.#options.logger.event("claude.observe_failed", { err: error, event: event.type }, "warn");
    }
    this.#queue.push(event);
    this.#options.onEmitted(event);
  }

  async #finishTurn(turn: TurnFinished, rest: readonly TelecodeEvent[]): Promise<void> {
    try {
      await this.#options.controller.beforeTurnFinished?.({ session: this.#options.session, turn });
    } catch (error) {
      this.#options.logger.event("claude.before_turn_finished_failed", { err: error }, "warn");
    }
    this.emit(turn);
    const more = this.emitAll(rest);
    if (more !== undefined) await more;
  }
}
