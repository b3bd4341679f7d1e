// Claude Code's own slash commands per project ("compact", "loop", the project's commands), as
// its sessions list them: a chat's "/loop 5m …" goes to the session as it is when the word is
// one of them. Remembered in the store, so a restart does not forget them.
import type { Lane, TelecodeEvent } from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import type { Store } from "../../store/index.js";

export class ClaudeCommands {
  readonly #store: Pick<Store, "claudeCommands">;
  readonly #logger: Logger;
  readonly #known = new Map<string, readonly string[] | null>();

  constructor(store: Pick<Store, "claudeCommands">, logger: Logger) {
    this.#store = store;
    this.#logger = logger;
  }

  /** Learns the project's commands from a session's start. */
  observe(lane: Lane, event: TelecodeEvent): void {
    if (event.type !== "session_started" || event.slashCommands === undefined) return;
    const names = event.slashCommands.filter((name) => /^[A-Za-z0-9_.:-]{1,64}$/.test(name));
    const before = this.of(lane.project);
    if (before !== null && before.length === names.length && before.every((n, i) => n === names[i])) return;
    this.#known.set(lane.project, names);
    try {
      this.#store.claudeCommands.set(lane.project, names);
    } catch (error) {
      this.#logger.event("telegram.claude_commands_unsaved", { err: error, project: lane.project }, "warn");
    }
  }

  /** The project's commands, or null before any session of it listed them. */
  of(project: string): readonly string[] | null {
    if (!this.#known.has(project)) {
      let stored: readonly string[] | null = null;
      try {
        stored = this.#store.claudeCommands.get(project);
      } catch (error) {
        this.#logger.event("telegram.claude_commands_unreadable", { err: error, project }, "warn");
      }
      this.#known.set(project, stored);
    }
    return this.#known.get(project) ?? null;
  }

  /** Whether `name` (lower case, no slash) is one of the project's commands. */
  has(project: string, name: string): boolean {
    return (this.of(project) ?? []).some((command) => command.toLowerCase() === name);
  }
}
