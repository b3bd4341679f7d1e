// The stateful translation from decoded stdout messages to Telecode events (DESIGN.md §3):
// deterministic, never throws on content. Control responses and non-approval control requests
// yield no events (the engine routes and answers those itself).
import { createClockFormatter, createLazyClockFormatter, TURN_CUT_OFF_NOTE } from "../domain/index.js";
import type { ClockFormatter, TelecodeEvent } from "../domain/index.js";
import type {
  WireControlRequest,
  WireDecodeProblem,
  WireMessage,
  WireResultMessage,
  WireSystemInit,
  WireSystemMessage,
} from "../wire/index.js";
import { isDecodeProblem } from "../wire/index.js";
import {
  apiRetryText,
  compactionText,
  otherSystemNote,
  rateLimitNote,
  rateLimitWindowKey,
  failedMcpNote,
  mcpFailureReasons,
  serverNames,
  signInMcpNote,
  usageLimitEvent,
} from "./translate-notes.js";
import { buildTurnFinished, buildUsage } from "./translate-result.js";
import { elicitationRequest, toApprovalRequest } from "./translate-blocks.js";
import { createMemorySessionBook, type SessionBook } from "./session-book.js";
import { resultTotalUsd, turnCostUsd } from "./turn-cost.js";
import { ConversationTranslator } from "./translate-conversation.js";
import { TaskTracker } from "./task-tracker.js";
import type { TurnFacts } from "./translate-result.js";
import { TurnOrigins, type CommandInfo, type CommandLookup } from "./turn-origins.js";

export type TranslatorOptions = {
  /**
   * IANA zone for clock times in notes ("resets 17:46 today"). Default "UTC". A function is
   * asked at the first clock time (a live session's host zone, looked up only if a note needs it).
   */
  timeZone?: string | (() => string);
  /**
   * Epoch ms now, for a live stream: a reset later today then reads "17:46 today", one on
   * another day "02:00 tomorrow" or "02:00 on 18 March". Without it (a replay) reset times
   * always carry their date and year.
   */
  now?: () => number;
  /**
   * The messages Telecode wrote, by uuid (a live session): their turns carry the origin and
   * run given, and any other turn is one the CLI started itself. Without it (a replay), only
   * wake-up sources and task notifications tell a self-started turn.
   */
  commandOf?: CommandLookup;
  /** What is known of each session across processes (its cost, its plan). Default: this translator's memory. */
  book?: SessionBook;
};

export type Translator = {
  /**
   * Translates one decoded message (or decode problem) into zero or more events, in order.
   * The returned array must not be mutated (an empty result is a shared frozen array).
   */
  push(message: WireMessage | WireDecodeProblem): readonly TelecodeEvent[];
  /** Call at end of stream: a warning if a turn was still open (no `result` came). */
  end(): readonly TelecodeEvent[];
  /**
   * Decode problems seen so far. Each became a warning note, but for a line of a type Telecode
   * does not know (a newer Claude Code's), left out quietly and counted in `unknownTypes`.
   */
  readonly decodeProblemCount: number;
  /** The lines of each type Telecode does not know, left out so far. */
  readonly unknownTypes: ReadonlyMap<string, number>;
  /** Lines whose translation failed unexpectedly (a bug; each became a warning note). */
  readonly translationErrorCount: number;
  /** True between a turn_started and its turn_finished. */
  readonly isTurnOpen: boolean;
  /** The MCP servers the process's first init named as not connected (their reasons are worth asking). */
  readonly failedMcpServers: readonly string[];
  /**
   * The note naming the MCP servers that did not connect, again with each one's reason from an
   * `mcp_status` reply: while the turn it was said in is open (later, nothing: it was shown).
   */
  explainMcpFailures(reply: Readonly<Record<string, unknown>>): readonly TelecodeEvent[];
};

const NO_EVENTS: readonly TelecodeEvent[] = Object.freeze([]);

/** Creates a translator for one CLI session's stdout. Throws a RangeError for an unknown time zone given by name. */
export function createTranslator(options: TranslatorOptions = {}): Translator {
  const { timeZone } = options;
  return new ClaudeTranslator(
    typeof timeZone === "function" ? createLazyClockFormatter(timeZone) : createClockFormatter(timeZone ?? "UTC"),
    options.now,
    options.commandOf,
    options.book ?? createMemorySessionBook(),
  );
}

class ClaudeTranslator implements Translator {
  readonly #clock: ClockFormatter;
  readonly #now: (() => number) | undefined;
  #out: TelecodeEvent[] = [];
  #sessionId = "";
  #sessionStarted = false;
  #sessionModel: string | undefined;
  #mode: string | undefined;
  #turnOpen = false;
  #turnNumber = 0;
  /** The turn whose init named MCP servers that did not connect, and their names. */
  #mcpFailed: { turn: number; names: readonly string[] } | undefined;
  /** Who started the open turn (and the run it answers). */
  #turn: CommandInfo = { origin: "person" };
  readonly #origins: TurnOrigins;
  /** When the usage limit of the last rejected rate-limit event resets (epoch ms). */
  #limitResetsAtMs: number | undefined;
  #decodeProblems = 0;
  readonly #unknownTypes = new Map<string, number>();
  #translationErrors = 0;
  readonly #conversation = new ConversationTranslator();
  readonly #warnedWindows = new Set<string>();
  readonly #tasks = new TaskTracker();

  readonly #book: SessionBook;

  constructor(
    clock: ClockFormatter,
    now: (() => number) | undefined,
    commandOf: CommandLookup | undefined,
    book: SessionBook,
  ) {
    this.#clock = clock;
    this.#now = now;
    this.#origins = new TurnOrigins(commandOf);
    this.#book = book;
  }

  get decodeProblemCount(): number {
    return this.#decodeProblems;
  }

  get unknownTypes(): ReadonlyMap<string, number> {
    return this.#unknownTypes;
  }

  get translationErrorCount(): number {
    return this.#translationErrors;
  }

  get isTurnOpen(): boolean {
    return this.#turnOpen;
  }

  get failedMcpServers(): readonly string[] {
    return this.#mcpFailed?.names ?? [];
  }

  explainMcpFailures(reply: Readonly<Record<string, unknown>>): readonly TelecodeEvent[] {
    const said = this.#mcpFailed;
    if (said === undefined || !this.#turnOpen || this.#turnNumber !== said.turn) return NO_EVENTS;
    const reasons = mcpFailureReasons(reply);
    return reasons.size === 0 ? NO_EVENTS : [failedMcpNote(said.names, reasons)];
  }

  push(message: WireMessage | WireDecodeProblem): readonly TelecodeEvent[] {
    if (isDecodeProblem(message)) {
      this.#decodeProblems += 1;
      const type = message.unknownType;
      if (type !== undefined) {
        // A newer Claude Code's addition, not a broken line: a note in every run would only alarm.
        this.#unknownTypes.set(type, (this.#unknownTypes.get(type) ?? 0) + 1);
        return NO_EVENTS;
      }
      return [
        {
          type: "note",
          kind: "warning",
          text: `Skipped a line from Claude Code that could not be read: ${message.reason}.`,
        },
      ];
    }
    const m = message;
    try {
      switch (m.type) {
        case "assistant":
          this.#conversation.assistant(m, this.#out);
          for (const event of this.#out) this.#origins.observe(event, this.#turnOpen);
          break;
        case "user":
          this.#conversation.user(m, this.#out);
          break;
        case "system":
          this.#system(m);
          break;
        case "result":
          this.#result(m);
          break;
        case "rate_limit_event": {
          const limit = usageLimitEvent(m);
          if (limit !== undefined) this.#out.push(limit);
          const info = m.rate_limit_info;
          if (info.status === "allowed_warning") {
            const window = rateLimitWindowKey(info);
            if (this.#warnedWindows.has(window)) break;
            if (this.#warnedWindows.size >= 64) this.#warnedWindows.clear();
            this.#warnedWindows.add(window);
          }
          const note = rateLimitNote(m, this.#clock, this.#now?.());
          if (note?.untilMs !== undefined) this.#limitResetsAtMs = note.untilMs;
          if (note !== undefined) this.#out.push(note);
          break;
        }
        case "control_request":
          this.#controlRequest(m);
          break;
        case "control_cancel_request":
          this.#out.push({ type: "approval_withdrawn", requestId: m.request_id });
          break;
        case "command_lifecycle":
          this.#origins.lifecycle(m);
          break;
        case "prompt_suggestion": {
          const text = m.suggestion.trim();
          const sessionId = m.session_id ?? (this.#sessionId === "" ? undefined : this.#sessionId);
          if (text !== "") this.#out.push({ type: "prompt_suggested", text, sessionId });
          break;
        }
        case "stream_event":
        case "control_response":
        case "tool_progress":
        case "tool_use_summary":
        case "auth_status":
        case "conversation_reset":
        case "keep_alive":
        case "active_goal":
          break;
      }
    } catch (error) {
      // Backstop only: fields the decoder does not check are guarded where they are read.
      this.#translationErrors += 1;
      const why = error instanceof Error ? error.message : String(error);
      this.#out.push({
        type: "note",
        kind: "warning",
        text: `Could not translate a ${String(m.type)} line from Claude Code (${why}).`,
      });
    }
    return this.#flush();
  }

  end(): readonly TelecodeEvent[] {
    if (!this.#turnOpen) return NO_EVENTS;
    this.#turnOpen = false;
    return [
      {
        type: "note",
        kind: "warning",
        text: "Claude Code stopped before it finished this turn.",
        key: TURN_CUT_OFF_NOTE,
      },
    ];
  }

  #flush(): readonly TelecodeEvent[] {
    if (this.#out.length === 0) return NO_EVENTS;
    const events = this.#out;
    this.#out = [];
    return events;
  }

  // ------------------------------------------------------------------ turns

  #init(m: WireSystemInit): void {
    this.#sessionId = m.session_id;
    // A resumed session's plan, which the CLI kept, as it last stood: its updates name its tasks.
    this.#conversation.recallPlan(() => this.#book.planOf(m.session_id));
    if (typeof m.model === "string") this.#sessionModel = m.model;
    const mode = typeof m.permissionMode === "string" ? m.permissionMode : undefined;
    const starting = !this.#sessionStarted;
    if (starting) {
      this.#sessionStarted = true;
      this.#mode = mode;
      const started: TelecodeEvent = {
        type: "session_started",
        sessionId: m.session_id,
        model: this.#sessionModel ?? "",
        cwd: typeof m.cwd === "string" ? m.cwd : "",
        permissionMode: mode ?? "",
        tools: Array.isArray(m.tools) ? m.tools.filter((t): t is string => typeof t === "string") : [],
      };
      const commands = m["slash_commands"];
      if (Array.isArray(commands)) started.slashCommands = commands.filter((c): c is string => typeof c === "string");
      if (typeof m.claude_code_version === "string") started.cliVersion = m.claude_code_version;
      this.#out.push(started);
    } else if (mode !== undefined && mode !== this.#mode) {
      this.#mode = mode;
      this.#out.push({ type: "mode_changed", mode });
    }
    // A manual /compact prints an init inside its own turn; one turn_started per turn.
    if (!this.#turnOpen) this.#startTurn();
    // Said once a process, in its first turn: each later init lists the same servers.
    if (starting) this.#unavailableMcpServers(m["mcp_servers"]);
  }

  /** Warns of the MCP servers an init lists as not connected: failed, or waiting for a sign-in. */
  #unavailableMcpServers(servers: unknown): void {
    const failed = serverNames(servers, "failed");
    const signIn = serverNames(servers, "needs-auth");
    if (failed.length > 0) {
      this.#mcpFailed = { turn: this.#turnNumber, names: failed };
      this.#out.push(failedMcpNote(failed));
    }
    if (signIn.length > 0) this.#out.push(signInMcpNote(signIn));
  }

  #startTurn(): void {
    this.#turnOpen = true;
    this.#turnNumber += 1;
    this.#conversation.startTurn();
    this.#turn = this.#origins.startTurn();
    this.#out.push({
      type: "turn_started",
      sessionId: this.#sessionId,
      turn: this.#turnNumber,
      origin: this.#turn.origin,
      ...(this.#turn.runId === undefined ? {} : { runId: this.#turn.runId }),
      ...(this.#turn.uuid === undefined ? {} : { promptUuid: this.#turn.uuid }),
    });
    this.#conversation.openChecklist(this.#out);
  }

  #result(m: WireResultMessage): void {
    if (typeof m.session_id === "string" && m.session_id !== "") this.#sessionId = m.session_id;
    if (!this.#turnOpen) this.#startTurn();
    const facts: TurnFacts = {
      lastText: this.#conversation.lastText,
      lastUsage: this.#conversation.lastUsage,
      lastModel: this.#conversation.lastModel,
      sessionModel: this.#sessionModel,
      turnCostUsd: turnCostUsd(m, this.#sessionId === "" ? undefined : this.#book.lastTotalUsd(this.#sessionId)),
      limitResets:
        this.#limitResetsAtMs === undefined
          ? undefined
          : { atMs: this.#limitResetsAtMs, moment: this.#clock.moment(this.#limitResetsAtMs, this.#now?.()) },
      origin: this.#origins.finishTurn(m, this.#turn),
      runId: this.#turn.runId,
    };
    // A failed turn's result repeats a refused file as its error; a finished one went on without it.
    if (!m.is_error) this.#conversation.turnGoesOn(this.#out);
    this.#out.push(buildUsage(m, facts));
    this.#out.push(buildTurnFinished(m, facts));
    const total = resultTotalUsd(m);
    if (this.#sessionId !== "") {
      if (total !== undefined) this.#book.recordTotalUsd(this.#sessionId, total);
      const plan = this.#conversation.takeChangedPlan();
      if (plan !== undefined) this.#book.recordPlan(this.#sessionId, plan);
    }
    this.#turnOpen = false;
    this.#limitResetsAtMs = undefined;
  }

  // ------------------------------------------------------------------ system

  #system(m: WireSystemMessage): void {
    switch (m.subtype) {
      case "init":
        this.#init(m as WireSystemInit);
        return;
      case "status": {
        const mode = m["permissionMode"];
        if (typeof mode === "string") {
          this.#mode = mode;
          this.#out.push({ type: "mode_changed", mode });
        }
        if (m["compact_result"] === "failed") {
          const why = typeof m["compact_error"] === "string" ? `: ${m["compact_error"]}` : "";
          this.#out.push({ type: "note", kind: "compaction", text: `Compaction failed${why}` });
        }
        return;
      }
      case "api_retry":
        this.#out.push({
          type: "note",
          kind: "api_retry",
          key: `api_retry:${this.#turnNumber}`,
          text: apiRetryText(m as Parameters<typeof apiRetryText>[0]),
        });
        return;
      case "compact_boundary":
        this.#out.push({
          type: "note",
          kind: "compaction",
          text: compactionText(m as Parameters<typeof compactionText>[0]),
        });
        return;
      case "task_progress": {
        const toolUseId = m["tool_use_id"];
        const description = m["description"];
        if (typeof toolUseId === "string" && typeof description === "string" && description !== "") {
          this.#out.push({ type: "tool_updated", toolUseId, detail: description });
        }
        this.#task(m);
        return;
      }
      case "task_started":
      case "task_updated":
      case "task_notification":
        this.#task(m);
        return;
      default: {
        const note = otherSystemNote(m);
        if (note !== undefined) this.#out.push(note);
      }
    }
  }

  // ------------------------------------------------------------------ control

  #task(m: WireSystemMessage): void {
    const event = this.#tasks.onTaskMessage(m);
    if (event === undefined) return;
    this.#origins.observe(event, this.#turnOpen);
    this.#out.push(event);
  }

  #controlRequest(m: WireControlRequest): void {
    if (m.request.subtype === "can_use_tool")
      this.#out.push({ type: "approval_requested", request: toApprovalRequest(m.request_id, m.request) });
    else if (m.request.subtype === "elicitation")
      this.#out.push({ type: "approval_requested", request: elicitationRequest(m.request_id, m.request) });
  }
}
