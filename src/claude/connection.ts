// One CLI process as the engine talks to it: its transport, control channel and stdout
// pipeline (decode → translate, in order; lines wait while a beforeTurnFinished hook runs).
// It knows nothing of runs: the session handle that owns it receives the events and requests.
// A kept process re-attached after a restart replays its backlog here first (see LineReplay).
import type { ApprovalRequest, TelecodeEvent } from "../domain/index.js";
import type { Clock, Logger } from "../ports/index.js";
import { decodeLine, isDecodeProblem, oversizedLineProblem } from "../wire/index.js";
import type { WireControlRequest, WireDecodeProblem, WireMessage } from "../wire/index.js";
import { CommandIds } from "./command-ids.js";
import { ControlChannel, RELISTED_REQUESTS } from "./control-channel.js";
import { LineGate } from "./line-gate.js";
import { refusalCause } from "./startup-refusals.js";
import type { CliTransport, LostLines, TransportClosed } from "./transport.js";
import { createTranslator, type Translator } from "./translator.js";
import type { SessionBook } from "./session-book.js";
import type { RecordedRequest } from "./spec.js";

/**
 * Why we ended a process ourselves (undefined: it ended on its own): idle, a cancel, silence, the
 * session's close, or a run it refused for good ("refused": it would not start, or has no such
 * session), after which it exits of itself.
 */
export type EndReason = "idle" | "cancel" | "silence" | "close" | "refused";

/** What a connection hands to the session handle that owns it. */
export interface ConnectionOwner {
  /** A stdout line arrived (the silence watch counts it). */
  heard(): void;
  /** The CLI named its session (an init or result line). */
  sessionIdSeen(sessionId: string): void;
  /**
   * Emits events in order; returns a promise only while a beforeTurnFinished hook must be
   * awaited. `seen`: the events replay lines a previous Telecode processed (its hooks ran).
   */
  deliver(events: readonly TelecodeEvent[], seen?: boolean): Promise<void> | undefined;
  /** A request from the CLI; `approval` is the translator's view of a can_use_tool. */
  controlRequest(connection: CliConnection, message: WireControlRequest, approval: ApprovalRequest | undefined): void;
  /** The line backlog filled or drained: reading may need to pause or resume. */
  pressureChanged(): void;
  /** The process is gone and everything it printed was delivered. */
  closed(connection: CliConnection, closed: TransportClosed): Promise<void>;
}

type Line = WireMessage | WireDecodeProblem;

/**
 * A kept process re-attached after a restart replays the lines it printed meanwhile. Requests
 * and answers among the lines printed before the re-attach are history: the requests that still
 * wait come again in the initialize reply (`relistPending`), hook callbacks are withdrawn by the
 * CLI, and no answer there is to a request of this connection. An MCP server's question is the
 * exception where the CLI does not list those (see relistPending).
 */
export type LineReplay = {
  /** Lines through this number were printed before this Telecode attached. */
  backlogThroughSeq: number;
  /** Lines through this number were processed by the previous Telecode: their turn-closing hooks ran. */
  seenThroughSeq: number;
  /** What the previous Telecode recorded of a request: asked and still open, settled, or nothing. */
  recordedRequest?: (requestId: string) => RecordedRequest | undefined;
};

/** The initialize reply's list of MCP servers' questions, which a CLI may leave out (see relistPending). */
const LISTED_QUESTIONS: (typeof RELISTED_REQUESTS)[number] = "pending_elicitation_requests";

const NO_REPLAY: LineReplay = { backlogThroughSeq: 0, seenThroughSeq: 0 };

export class CliConnection {
  readonly transport: CliTransport;
  readonly channel: ControlChannel;
  readonly translator: Translator;
  /** The uuids written on this process's user lines: their turns are Telecode's. */
  readonly commands = new CommandIds();
  /** Why we ended it, once we did. */
  endReason: EndReason | undefined;
  /** How long it was silent when the silence watch ended it. */
  silentMs = 0;
  /** Resolves once the process is gone and everything it printed was handled. */
  readonly finished: Promise<void>;
  readonly #owner: ConnectionOwner;
  readonly #logger: Logger;
  readonly #gate: LineGate<Line>;
  #lastSeq = 0;
  #receivedSeq = 0;
  #heardAny = false;
  readonly #replay: LineReplay;
  /** MCP servers' questions among the backlog's lines, by request id, while the CLI may still wait on them. */
  readonly #backlogQuestions = new Map<string, { seq: number; message: WireControlRequest }>();
  /** Claude Code was asked why its MCP servers did not connect (once a process). */
  #mcpAsked = false;

  constructor(
    transport: CliTransport,
    owner: ConnectionOwner,
    deps: {
      clock: Clock;
      logger: Logger;
      /** Asked when a note first shows a clock time. */
      timeZone: () => string;
      book: SessionBook;
      replay?: LineReplay;
      requestIdPrefix?: string;
    },
  ) {
    this.transport = transport;
    this.translator = createTranslator({
      timeZone: deps.timeZone,
      now: () => deps.clock.now(),
      commandOf: (uuid) => this.commands.lookup(uuid),
      book: deps.book,
    });
    this.#owner = owner;
    this.#logger = deps.logger;
    this.#replay = deps.replay ?? NO_REPLAY;
    this.channel = new ControlChannel({
      write: (line) => transport.write(line),
      clock: deps.clock,
      logger: deps.logger,
      ...(deps.requestIdPrefix === undefined ? {} : { idPrefix: deps.requestIdPrefix }),
    });
    this.#gate = new LineGate<Line>({
      process: (seq, message) => this.#process(seq, message),
      // Answers to our own requests cannot wait: the hook we are waiting for may need one.
      bypass: (message, seq) => {
        if (isDecodeProblem(message) || message.type !== "control_response") return false;
        if (!this.#isBacklog(seq)) this.channel.handleResponse(message);
        return true;
      },
      onPressure: () => owner.pressureChanged(),
    });
    transport.start({
      onLine: (line, seq) => this.#take(seq, decodeLine(line)),
      onOversizedLine: (report, seq) => this.#take(seq, oversizedLineProblem(report)),
      onLinesLost: (lost) => this.#linesLost(lost),
    });
    this.finished = transport.closed.then(async (closed) => {
      await this.#gate.settled;
      const tail = owner.deliver(this.translator.end());
      if (tail !== undefined) await tail;
      await owner.closed(this, closed);
    });
  }

  /** Still usable for another message: running, and not being ended by us. */
  get isLive(): boolean {
    return this.transport.exit === undefined && this.endReason === undefined;
  }

  /** Whether the CLI printed anything at all (a crash before output is told apart). */
  get hadOutput(): boolean {
    return this.#heardAny;
  }

  /** The sequence number of the last line processed. */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Resolves once every line received so far was processed (none waits behind a hook). */
  async drained(): Promise<void> {
    for (let waiting = this.#gate.settled; waiting !== undefined; waiting = this.#gate.settled) await waiting;
  }

  /** The sequence number of the last line received (processed or waiting behind a hook). */
  get receivedSeq(): number {
    return this.#receivedSeq;
  }

  /**
   * The requests the CLI still waits on, as a re-sent initialize lists them (after a
   * re-attach): permissions, and MCP servers' questions. Each is translated and handed to the
   * owner like a line just printed (one whose line also came live is answered once all the
   * same: the control channel knows its id). Returns their request ids.
   *
   * Claude Code lists MCP servers' questions only behind a switch of its own (2.1.321–2.1.337:
   * the list is missing from the reply). Then the backlog's questions that were not withdrawn
   * count as still waiting, unless the previous Telecode settled them: one it never saw, or asked
   * a person about and had no answer to, is asked again.
   */
  relistPending(reply: Readonly<Record<string, unknown>>): string[] {
    const listed = RELISTED_REQUESTS.flatMap((key) => {
      const requests = reply[key];
      return Array.isArray(requests) ? (requests as unknown[]) : [];
    });
    const messages = listed.map((item) => decodeLine(JSON.stringify(item)));
    if (!Array.isArray(reply[LISTED_QUESTIONS])) messages.push(...this.#questionsStillAsked());
    const ids: string[] = [];
    for (const message of messages) {
      if (isDecodeProblem(message) || message.type !== "control_request") continue;
      ids.push(message.request_id);
      const events = this.translator.push(message);
      void this.#owner.deliver(events);
      const approval = events.find((e) => e.type === "approval_requested");
      this.#owner.controlRequest(this, message, approval?.type === "approval_requested" ? approval.request : undefined);
    }
    return ids;
  }

  /** The backlog's MCP questions a person may still owe an answer (see relistPending). */
  #questionsStillAsked(): WireControlRequest[] {
    const still: WireControlRequest[] = [];
    for (const [requestId, { seq, message }] of this.#backlogQuestions) {
      const recorded = this.#replay.recordedRequest?.(requestId);
      const seen = seq <= this.#replay.seenThroughSeq;
      if (recorded === "open" || (recorded === undefined && !seen)) still.push(message);
    }
    return still;
  }

  /** The line backlog is long enough that reading should pause. */
  get isBacklogged(): boolean {
    return this.#gate.full;
  }

  /** The one way we end a process (see EndReason): see CliTransport.shutdown. */
  async end(reason: EndReason): Promise<void> {
    this.endReason ??= reason;
    await this.transport.shutdown();
    await this.finished;
  }

  #take(seq: number, message: Line): void {
    this.#heardAny = true;
    this.#receivedSeq = seq;
    this.#owner.heard();
    this.#gate.push(seq, message);
  }

  #isBacklog(seq: number): boolean {
    return seq <= this.#replay.backlogThroughSeq;
  }

  /**
   * A line of a type Telecode does not know is left out of the chat (see the translator); the log
   * names each such type once a process, with the pid that `claude.spawned` gives the version of.
   */
  #unknownTypeSkipped(type: string, line: string): void {
    if (this.translator.unknownTypes.get(type) !== 1) return;
    this.#logger.event("claude.unknown_message_type", { type, pid: this.transport.pid, content: line }, "warn");
  }

  #linesLost(lost: LostLines): void {
    const count = lost.to - lost.from + 1;
    const text = `${count === 1 ? "1 line" : `${count} lines`} of Claude Code's output could not be replayed (${lost.why}); what they showed is missing here.`;
    void this.#owner.deliver([{ type: "note", kind: "warning", text, key: "lines_lost" }]);
  }

  /** Handles one decoded line; returns a promise only when a beforeTurnFinished hook must be awaited. */
  #process(seq: number, message: Line): Promise<void> | undefined {
    this.#lastSeq = seq;
    const seen = seq <= this.#replay.seenThroughSeq;
    if (isDecodeProblem(message)) {
      const events = this.translator.push(message);
      if (message.unknownType !== undefined) this.#unknownTypeSkipped(message.unknownType, message.line);
      return this.#owner.deliver(events, seen);
    }
    // Printed before this Telecode attached: see LineReplay.
    if (this.#isBacklog(seq) && (message.type === "control_request" || message.type === "control_response")) {
      if (message.type === "control_request" && message.request.subtype === "elicitation")
        this.#backlogQuestions.set(message.request_id, { seq, message });
      return undefined;
    }
    switch (message.type) {
      case "control_response":
        this.channel.handleResponse(message);
        return undefined;
      case "control_cancel_request":
        this.#backlogQuestions.delete(message.request_id);
        if (!this.channel.withdraw(message.request_id)) return undefined;
        break;
      case "control_request": {
        const events = this.translator.push(message);
        const pending = this.#owner.deliver(events, seen);
        const approval = events.find((e) => e.type === "approval_requested");
        this.#owner.controlRequest(
          this,
          message,
          approval?.type === "approval_requested" ? approval.request : undefined,
        );
        return pending;
      }
      case "system":
        if (message.subtype === "init") {
          if (typeof message["session_id"] === "string") this.#owner.sessionIdSeen(message["session_id"]);
          const events = this.translator.push(message);
          // The process's first init names them; asked about once, unless that init is history.
          if (!this.#mcpAsked && this.translator.failedMcpServers.length > 0) {
            this.#mcpAsked = true;
            if (!this.#isBacklog(seq)) void this.#explainMcpFailures();
          }
          return this.#owner.deliver(events, seen);
        }
        break;
      case "result":
        // A CLI that refused to start names a session it never began.
        if (message.session_id !== "" && refusalCause(message) === undefined)
          this.#owner.sessionIdSeen(message.session_id);
        break;
      default:
        break;
    }
    return this.#owner.deliver(this.translator.push(message), seen);
  }

  /** Asks Claude Code why MCP servers did not connect, and says so in the note's place. */
  async #explainMcpFailures(): Promise<void> {
    try {
      const events = this.translator.explainMcpFailures(await this.channel.request({ subtype: "mcp_status" }));
      if (events.length > 0) void this.#owner.deliver(events);
    } catch (error) {
      // The note without the reasons stands; what it says to run on the computer gives them.
      this.#logger.event("claude.mcp_status_failed", { err: error }, "debug");
    }
  }
}
