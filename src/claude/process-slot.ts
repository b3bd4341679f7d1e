// A session handle's one process at a time: the live one is reused while the mode keeps
// processes; otherwise a new one starts (resuming the session) once the previous one has
// finished. Starting is done once even when two callers ask at the same moment. A kept
// process re-attached after a restart is adopted instead of started.
import type { Clock, Logger } from "../ports/index.js";
import { randomBytes } from "node:crypto";
import { SESSION_GONE_NOTE } from "../domain/index.js";
import { CliConnection, type ConnectionOwner, type LineReplay } from "./connection.js";
import { awaitSayingEndHooks, PREVIOUS_END_HOOKS_NOTE } from "./end-hooks.js";
import { sessionGoneWords } from "./failures.js";
import { launchCli, type LaunchDeps } from "./launch.js";
import type { ModeHost, ProcessMode } from "./process-mode.js";
import type { SessionSpec } from "./spec.js";
import type { CliTransport } from "./transport.js";
import type { SessionBook } from "./session-book.js";

/** A --continue (/continue, `telecode run --continue`) in a project where Claude Code has no session to resume. */
const NOTHING_TO_CONTINUE =
  "There is no earlier Claude Code session in this project to continue, so this message starts a fresh one.";

/** A process that was to outlive a restart of Telecode but runs as its child (the keeper failed: `why`). */
const unkeptNote = (why: string): string => `This task ends if Telecode restarts, as its keeper failed. ${why}`;

const BYPASS_NOTE =
  "Approvals are bypassed: claude.dangerously_skip_permissions is on, so every tool runs without asking. Turn it off in the config to be asked again.";

export type ProcessSlotDeps = LaunchDeps & {
  clock: Clock;
  logger: Logger;
  /** IANA zone for clock times in notes, asked when a note first shows one (see engine.ts). */
  timeZone: () => string;
  book: SessionBook;
  mode: ProcessMode;
  owner: ConnectionOwner;
  host: ModeHost;
  /** The spec in effect now (mode and model change over time). */
  spec: () => SessionSpec;
  /** The session to resume, once the CLI named one. */
  sessionId: () => string | undefined;
};

export class ProcessSlot {
  readonly #deps: ProcessSlotDeps;
  #current: CliConnection | undefined;
  #spawning: Promise<CliConnection> | undefined;
  #firstSpawn = true;

  constructor(deps: ProcessSlotDeps) {
    this.#deps = deps;
  }

  /** The process now (live or winding down), if any. */
  get current(): CliConnection | undefined {
    return this.#current;
  }

  /** The process a follow-up can use: only while the mode keeps processes and we are not ending it. */
  live(): CliConnection | undefined {
    const connection = this.#current;
    return this.#deps.mode.keepsProcess && connection !== undefined && connection.isLive ? connection : undefined;
  }

  /** The live process, else a new one (`prompt` goes in its arguments in print mode). Throws when it cannot start. */
  async connection(prompt: string | undefined): Promise<CliConnection> {
    const live = this.live();
    if (live !== undefined) return live;
    const previous = this.#current;
    if (previous !== undefined) {
      const runsEndHook = (): boolean => previous.transport.runsEndHook?.() ?? false;
      const say = (): void => this.#deps.host.inform(PREVIOUS_END_HOOKS_NOTE);
      await awaitSayingEndHooks(previous.finished, runsEndHook, this.#deps.clock, say);
    }
    this.#spawning ??= this.#launch(prompt).finally(() => {
      this.#spawning = undefined;
    });
    return this.#spawning;
  }

  /** The process is gone: the slot is free. */
  release(connection: CliConnection): void {
    if (this.#current === connection) this.#current = undefined;
  }

  /** Waits for a start in progress, then ends the process: `beforeEnd` runs while it can still be written to. */
  async close(beforeEnd: (connection: CliConnection) => Promise<void>): Promise<void> {
    await this.#spawning?.catch(() => undefined);
    const connection = this.#current;
    if (connection === undefined) return;
    connection.endReason ??= "close";
    await beforeEnd(connection);
    await connection.end("close");
  }

  /**
   * Takes over a kept process re-attached after a restart (its replay waits for this): the
   * mode's handshake is sent again; resolves with its reply (undefined without one).
   */
  adopt(
    transport: CliTransport,
    replay: LineReplay,
  ): { connection: CliConnection; initialized: Promise<Record<string, unknown> | undefined> } {
    this.#firstSpawn = false;
    // The previous Telecode's requests may still be answered: ours must not share their ids.
    const requestIdPrefix = `r${randomBytes(3).toString("hex")}_`;
    const connection = new CliConnection(transport, this.#deps.owner, { ...this.#deps, replay, requestIdPrefix });
    this.#current = connection;
    this.#deps.owner.pressureChanged();
    const { backlogThroughSeq, seenThroughSeq } = replay;
    this.#deps.logger.event("claude.adopted", {
      pid: transport.pid,
      keptId: transport.keptId,
      backlogThroughSeq,
      seenThroughSeq,
    });
    return { connection, initialized: this.#deps.mode.begin(this.#deps.host, connection) };
  }

  async #launch(prompt: string | undefined): Promise<CliConnection> {
    const spec = this.#deps.spec();
    const logger = this.#deps.logger;
    const resume = this.#deps.sessionId();
    const continueLast = this.#firstSpawn && spec.continue === true && resume === undefined;
    this.#firstSpawn = false;
    const session = { resume, continueLast, prompt };
    const { transport, info, args, gone, nothingToContinue } = await launchCli(this.#deps, spec, session);
    const connection = new CliConnection(transport, this.#deps.owner, this.#deps);
    this.#current = connection;
    this.#deps.owner.pressureChanged();
    logger.event("claude.spawned", { pid: transport.pid, args, cwd: spec.cwd, version: info.version });
    if (gone !== undefined) {
      logger.event("claude.session_gone", { sessionId: gone, pid: transport.pid }, "warn");
      this.#deps.host.warn(`${sessionGoneWords(gone)}, so this message starts a fresh session.`, SESSION_GONE_NOTE);
    }
    if (nothingToContinue === true) {
      logger.event("claude.nothing_to_continue", { cwd: spec.cwd, pid: transport.pid });
      this.#deps.host.warn(NOTHING_TO_CONTINUE, SESSION_GONE_NOTE);
    }
    if (transport.unkept !== undefined) this.#deps.host.warn(unkeptNote(transport.unkept));
    if (spec.dangerouslySkipPermissions === true) {
      logger.event("claude.approvals_bypassed", { pid: transport.pid }, "warn");
      this.#deps.host.warn(BYPASS_NOTE);
    }
    void this.#deps.mode.begin(this.#deps.host, connection);
    return connection;
  }
}
