// What differs between the CLI's two invocations: control mode keeps one process between runs
// (prompts on stdin, initialize first, cancel by interrupt); print mode starts one per run with
// the prompt in its arguments, closes stdin at once and is cancelled by ending the process.
import { promptText, type Prompt, type TurnOrigin } from "../domain/index.js";
import type { Clock, Logger, TimerHandle } from "../ports/index.js";
import type { OutgoingControlRequest } from "../wire/index.js";
import type { CliConnection } from "./connection.js";
import { failureError } from "./errors.js";
import { engineFailure } from "./failures.js";
import { encodePrompt, hasAttachments } from "./prompt-line.js";
import type { SessionSpec } from "./spec.js";

/** A run as the mode sees it. */
export type ModeRun = {
  readonly id: string;
  /** Whose turn the run's message starts: a person's, or a schedule's Telecode fired. */
  readonly origin: TurnOrigin;
  readonly done: boolean;
  connection: CliConnection | undefined;
  /** Ends the process if an interrupt did not end the turn in time. */
  cancelTimer: TimerHandle | undefined;
  /** The last line of its process received before the run's prompt was written: its own lines come after. */
  startSeq: number;
};

/** What the session handle lends a mode. */
export interface ModeHost {
  /** The spec in effect now (mode and model change over time). */
  spec: () => SessionSpec;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The live process when the mode keeps one, else a new one (after the previous one finished). */
  connection(prompt?: string): Promise<CliConnection>;
  /** The initialize handshake's reply. */
  initialized(reply: Record<string, unknown>): void;
  /** A warning note for the person (`key`: one a front end may show in its own way). */
  warn(text: string, key?: string): void;
  /** A note for the person that warns of nothing (what a wait is for). */
  inform(text: string): void;
}

export interface ProcessMode {
  /** The process outlives runs: follow-ups reuse it, it idles out, a crash between runs is noted. */
  readonly keepsProcess: boolean;
  /** Right after a process started (or was re-attached); resolves with the initialize reply, undefined without one. */
  begin(host: ModeHost, connection: CliConnection): Promise<Record<string, unknown> | undefined>;
  /** Gets the run's prompt to the CLI. Throws (a ClaudeError) when the CLI cannot take it. */
  startRun(host: ModeHost, run: ModeRun, prompt: Prompt): Promise<void>;
  /** Ends the run early on its live process. */
  cancel(host: ModeHost, run: ModeRun, connection: CliConnection): Promise<void>;
}

const DEFAULT_CANCEL_GRACE_MS = 5_000;

export const controlMode: ProcessMode = {
  keepsProcess: true,
  begin(host, connection) {
    const spec = host.spec();
    const initialize: OutgoingControlRequest = {
      subtype: "initialize",
      hooks: spec.hooks ?? null,
      ...(spec.promptSuggestions === true ? { promptSuggestions: true } : {}),
    };
    return connection.channel.request(initialize, 60_000).then(
      (reply) => {
        host.initialized(reply);
        return reply;
      },
      (error: unknown) => {
        if (!connection.isLive) return undefined;
        host.logger.event("claude.initialize_failed", { err: error }, "warn");
        host.warn(`Claude Code did not complete the initialize handshake: ${messageOf(error)}`);
        return undefined;
      },
    );
  },
  async startRun(host, run, prompt) {
    const connection = await host.connection();
    run.connection = connection;
    if (run.done) return;
    run.startSeq = connection.receivedSeq;
    // The uuid comes back in command_lifecycle: the turn it starts is this run's, and no other is.
    const uuid = connection.commands.issue({ origin: run.origin, runId: run.id });
    const written = await connection.transport.write(encodePrompt(prompt, uuid));
    if (!written.ok) throw written.error;
  },
  async cancel(host, run, connection) {
    const graceMs = host.spec().cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
    // Interrupt first (the CLI ends the turn as error_during_execution); end the process if it does not.
    run.cancelTimer = host.clock.setTimer(graceMs, () => {
      if (!run.done) void connection.end("cancel");
    });
    try {
      await connection.channel.request({ subtype: "interrupt" }, graceMs);
    } catch (error) {
      host.logger.event("claude.interrupt_failed", { err: error, runId: run.id }, "warn");
      if (!run.done) await connection.end("cancel");
    }
  },
};

export const printMode: ProcessMode = {
  keepsProcess: false,
  begin(_host, connection) {
    connection.transport.closeStdin();
    return Promise.resolve(undefined);
  },
  async startRun(host, run, prompt) {
    // The prompt goes in the arguments, which carry words only.
    if (hasAttachments(prompt))
      throw failureError(
        "claude.attachments_unsupported",
        engineFailure("prompt_unsupported", { detail: "in print mode it takes words only" }),
      );
    const connection = await host.connection(promptText(prompt));
    run.connection = connection;
    // Cancelled while it started: it has the prompt already, in its arguments, so it is ended.
    if (run.done) await connection.end("cancel");
  },
  async cancel(_host, _run, connection) {
    await connection.end("cancel");
  },
};

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
