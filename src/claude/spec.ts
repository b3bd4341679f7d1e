// The engine's public contract: what a session is opened with, what decides its approvals,
// and the session handle. Types only; the behaviour lives in session-handle.ts.
import type {
  ApprovalAnswer,
  ApprovalRequest,
  McpSignInEnd,
  McpSignInStart,
  Prompt,
  SideAnswer,
  SideExchange,
  TelecodeEvent,
  TurnFinished,
  TurnOrigin,
  WrittenDown,
} from "../domain/index.js";
import type { ClaudeProvider } from "./env.js";
import type { CliTransport } from "./transport.js";

export type Effort = "low" | "medium" | "high" | "xhigh" | "max";

/** Hook matchers sent in the initialize request; their callbacks come back to `hookCallback`. */
export type HookMatchers = Readonly<
  Record<string, readonly { matcher?: string; hookCallbackIds: readonly string[] }[]>
>;

export type SessionSpec = {
  /** The project directory the CLI runs in. */
  cwd: string;
  /** The CLI's own mode string (`default`, `acceptEdits`, `plan`, …); Telecode's `plan-auto` is translated by the caller. */
  permissionMode: string;
  /** Resume this CLI session id on the first spawn. */
  resume?: string;
  /**
   * A session to resume that Claude Code no longer has (its transcript is gone: the CLI deletes
   * old ones) is replaced by a fresh one, and a note says so. Without it, such a run fails
   * with session_not_found.
   */
  freshIfGone?: boolean;
  /** Continue the most recent conversation in `cwd` on the first spawn. */
  continue?: boolean;
  model?: string;
  effort?: Effort;
  /** Sent as `--allowedTools` only when non-empty: never a built-in default. */
  allowedTools?: readonly string[];
  /** From config; checked with `validateExtraArgs`, placed after the I/O flags. */
  extraArgs?: readonly string[];
  /** Flags of `extraArgs` that claude.dangerously_allow_unsafe_args lets through. */
  allowUnsafeArgs?: readonly string[];
  /**
   * Telecode's own lines for the system prompt (`--append-system-prompt`): not one of the
   * person's `extraArgs`, so not checked against their allow-list; joined with theirs when
   * they pass the flag too (the CLI keeps only the last one).
   */
  appendSystemPrompt?: string;
  includePartialMessages?: boolean;
  /** Extra environment variable names passed through to the CLI. */
  envAllow?: readonly string[];
  /** Pass ANTHROPIC_API_KEY (bills the API instead of the user's subscription). */
  useApiBilling?: boolean;
  /** Where model calls go; decides which credentials reach the CLI. Default `anthropic`. */
  provider?: ClaudeProvider;
  /** The one explicit approval bypass; warned about at every start. */
  dangerouslySkipPermissions?: boolean;
  /** Set CLAUDE_CODE_DISABLE_CRON=1 (a resumed session may hold a cron job we scheduled). */
  disableCron?: boolean;
  /**
   * Ask Claude Code for a guess at the person's next message after each turn (a
   * `prompt_suggested` event; one more request a turn, read from the prompt cache). Default false.
   */
  promptSuggestions?: boolean;
  /** Print mode (`-p … -- PROMPT`, one process per run, no approvals possible). Default false. */
  print?: boolean;
  /** Close an idle process after this long with no run and no pending approval. Default 30 min; 0 never. */
  idleMs?: number;
  /** A `stall` note after this long without output during a turn. Default 10 min (×3 while a tool runs). */
  stallNoteMs?: number;
  /** End the process after this long without output during a turn. Default 2 h. */
  hardSilenceMs?: number;
  /** After an interrupt, end the process if the turn has not ended within this long. Default 5 s. */
  cancelGraceMs?: number;
  hooks?: HookMatchers;
};

/** An answer to a `can_use_tool` request, optionally saying who decided (for approval_resolved). */
export type ApprovalDecision = ApprovalAnswer & { by?: string };

export type RunInfo = { id: string; unattended: boolean };

export type SessionControls = {
  /** Sends set_permission_mode and awaits the CLI's ack. Fails with a ClaudeError when no process runs. */
  setPermissionMode(mode: string): Promise<void>;
  setModel(model: string | null): Promise<void>;
  /** Sends interrupt and awaits the ack (the turn then ends with error_during_execution). */
  interrupt(): Promise<void>;
  /** The CLI session id (resume token), known after the first turn started. */
  readonly sessionId: string | undefined;
  /** The current process id, while one runs. */
  readonly pid: number | undefined;
};

export type DecideContext = {
  /** Aborts when the CLI withdraws the request or the session ends; the engine then answers itself if needed. */
  signal: AbortSignal;
  run: RunInfo | undefined;
  session: SessionControls;
};

export interface SessionController {
  /** Sync, called for every event in stream order BEFORE it is queued to consumers. */
  observe?(event: TelecodeEvent): void;
  /** Every can_use_tool goes here; must resolve to exactly one answer. */
  decide(request: ApprovalRequest, ctx: DecideContext): Promise<ApprovalDecision>;
  /** Our own hook callbacks (ids from `SessionSpec.hooks`). Returns the hook output object. */
  hookCallback?(
    callbackId: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** Awaited after a result line is translated and BEFORE its turn_finished (and run_completed) are delivered. */
  beforeTurnFinished?(ctx: { session: SessionControls; turn: TurnFinished }): Promise<void>;
  /**
   * The session's kept process went on without this Telecode (a detach, or a newer Telecode
   * took it over): open decisions stay open for the next one; nothing is settled or answered.
   */
  handedOver?(): void;
}

export type StartRunOptions = {
  unattended?: boolean;
  runId?: string;
  /** Whose turn the message starts, as its turn events say: default "person"; a fired schedule's run says so. */
  origin?: TurnOrigin;
  /**
   * Work to finish before the prompt is written (putting a live process back in plan mode).
   * The run is in flight meanwhile: a cancel then ends it without the prompt ever being sent.
   */
  beforePrompt?: () => Promise<void>;
};

/** Where a run's lines are in the output of its kept process (one that outlives Telecode). */
export type KeptRunPlace = {
  /** The kept process (CliTransport.keptId). */
  keptId: string;
  /** The last line of the process before the run's own lines. */
  startSeq: number;
};

/** A run whose kept process outlived a Telecode restart, re-attached and replaying from the run's start. */
export type KeptProcess = {
  /** Attached; its lines (from just after `run.startSeq`) wait for the handle. */
  transport: CliTransport;
  run: { id: string; startedAtMs: number; startSeq: number; unattended?: boolean };
  /** Lines through this number were printed before the re-attach (see LineReplay in connection.ts). */
  backlogThroughSeq: number;
  /** Lines through this number were processed by the previous Telecode. */
  seenThroughSeq: number;
  /** What the previous Telecode recorded of a request of the run (see LineReplay in connection.ts). */
  recordedRequest?: (requestId: string) => RecordedRequest | undefined;
};

/** A request a person was asked about: still to answer ("open"), or answered or withdrawn ("settled"). */
export type RecordedRequest = "open" | "settled";

/** A session handle over a kept process, and when it has caught up with the CLI's open requests. */
export type AdoptedSession = {
  handle: SessionHandle;
  /**
   * Resolves once the re-sent initialize was answered and every approval the CLI still waits
   * on was handed to the controller again (their request ids); undefined when the CLI could not
   * answer (it had exited, or did not answer in time). Never rejects.
   */
  reconciled: Promise<readonly string[] | undefined>;
};

/**
 * The live handle on one session: it owns at most one CLI process at a time (started with the
 * first run, respawned with --resume when it is gone) and runs one run at a time.
 */
export interface SessionHandle extends SessionControls {
  /** Writes a user message (spawning or resuming the process if needed) and returns the run id. Throws `claude.run_in_flight` while a run is in flight, `claude.session_closed` after close. */
  startRun(prompt: Prompt, options?: StartRunOptions): Promise<string>;
  /** Interrupts the run, then ends the process if the turn has not ended within `cancelGraceMs`. Completes as cancelled. */
  cancelRun(runId: string): Promise<void>;
  /** All events of this session in stream order, including run_completed. One consumer; backpressured. Breaking out closes the session. */
  events(): AsyncIterable<TelecodeEvent>;
  /** The one shutdown path: denies pending approvals, closes stdin, SIGTERM then SIGKILL the group, awaits exit. Idempotent. */
  close(): Promise<void>;
  /** Begins a sign-in to MCP server `server` in the live process (`claude.no_process` without one). */
  mcpSignIn(server: string): Promise<McpSignInStart>;
  /** Finishes it with the address its page sent the browser to, and connects the server again. */
  mcpSignInCallback(server: string, callbackUrl: string): Promise<McpSignInEnd>;
  /** Asks the live process a side question (`claude.no_process` without one): see side-question.ts. */
  sideQuestion(question: string, history?: readonly SideExchange[]): Promise<SideAnswer>;
  /** Whether its process, ending, runs a SessionEnd hook, which `close` (or the next start) waits for. */
  readonly runsEndHook: boolean;
  /**
   * Stops waiting for its process to wind down (a person's Ctrl-C): it is killed now, its
   * SessionEnd hooks cut short, and `close` resolves once what it left running is ended too. A
   * kept process is left to `close`.
   */
  endNow(): void;
  readonly isRunning: boolean;
  /** The CLI's initialize reply (commands, models, account, capabilities), once received. */
  readonly initializeReply: Readonly<Record<string, unknown>> | undefined;
  /** The sequence number of the last stdout line processed from the current process (0: none yet). */
  readonly lastLineSeq: number;
  /** The run in flight, while its process is kept (it outlives Telecode): where its lines start. */
  readonly keptRun: KeptRunPlace | undefined;
  /**
   * The caller recorded everything through `seq` (clamped to what was processed, of the
   * current process or, once it ended, the last): a kept process may forget it, never the
   * lines of the run in flight.
   */
  acknowledgeLines(seq: number): void;
  /**
   * Lets go of a kept process and its run, both going on without this Telecode (a restart):
   * events end without a run_completed, nothing is answered or denied. False (nothing done)
   * when the process is not kept or none runs.
   */
  detach(): Promise<boolean>;
  /** Set once the handle let go of its kept process (it detached, or a newer Telecode took it over). */
  readonly handedOver: boolean;
}

export interface ClaudeEngine {
  openSession(spec: SessionSpec, controller: SessionController): SessionHandle;
  /**
   * A handle over a kept process re-attached after a restart, with its run in flight: the
   * replay goes through the normal pipeline, initialize is sent again (same hooks), and the
   * approvals the CLI still waits on are asked of the controller again by their request ids.
   */
  adoptSession(spec: SessionSpec, controller: SessionController, kept: KeptProcess): AdoptedSession;
  /**
   * What the CLI wrote down of `sessionId` under `spec`: nothing it can resume, the
   * conversation, or the conversation with the message written with `messageUuid` in it (a CLI
   * killed moments after taking a message may not have written it yet). Never throws.
   */
  writtenDown(spec: SessionSpec, sessionId: string, messageUuid?: string): Promise<WrittenDown>;
}
