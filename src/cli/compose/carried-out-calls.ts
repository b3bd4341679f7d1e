// Scheduling calls Telecode carried out itself although Claude Code failed them (a CronDelete
// of a loop Claude Code never held): what the person sees of each instead of the failure.

/** The tool calls Telecode carried out itself although Claude Code failed them, by tool_use id: what to show instead. */
export class CarriedOutCalls {
  /** A call whose end never came is forgotten after this many newer ones. */
  static readonly #MAX = 64;
  readonly #details = new Map<string, string>();

  remember(toolUseId: string, detail: string): void {
    if (this.#details.size >= CarriedOutCalls.#MAX) this.#details.delete(this.#details.keys().next().value as string);
    this.#details.set(toolUseId, detail);
  }

  take(toolUseId: string): string | undefined {
    const detail = this.#details.get(toolUseId);
    this.#details.delete(toolUseId);
    return detail;
  }
}
