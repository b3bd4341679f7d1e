// The control channel of one CLI process: our requests (own ids, awaited with a timeout) and
// the CLI's requests (each answered exactly once; a control_cancel_request withdraws one so
// its later answer is never written). State lives in the instance; one per process.
import type { OutgoingControlRequest, WireControlResponse } from "../wire/index.js";
import { encodeControlRequest } from "../wire/index.js";
import type { Clock, Logger, TimerHandle } from "../ports/index.js";
import { ClaudeError, isClaudeError } from "./errors.js";
import type { StdinWrite } from "./transport.js";

type Outgoing = {
  subtype: string;
  resolve(r: Record<string, unknown>): void;
  reject(e: Error): void;
  timer: TimerHandle;
};
type Incoming = { subtype: string; controller: AbortController };

/**
 * Why a withdrawn request's signal is aborted: one error for every withdrawal, since building one
 * (its stack, deep under the line that withdrew it) costs more than the rest of that line's work.
 */
const WITHDRAWN = new ClaudeError("claude.control_failed", "Claude Code withdrew the request.");

/** Answered request ids remembered per process; the CLI repeats one only right after it was sent. */
const ANSWERED_MEMORY = 1000;

/**
 * Where an initialize answer lists, beside its payload, the requests the CLI still waits on
 * (after a re-attach): permissions, and MCP servers' questions (which 2.1.332 does not list yet).
 */
export const RELISTED_REQUESTS = ["pending_permission_requests", "pending_elicitation_requests"] as const;

/** The lists of `RELISTED_REQUESTS` an answer carries beside its payload. */
function relistedBeside(answer: Readonly<Record<string, unknown>>): Record<string, unknown[]> {
  const lists: Record<string, unknown[]> = {};
  for (const key of RELISTED_REQUESTS) {
    const listed = answer[key];
    if (Array.isArray(listed)) lists[key] = listed as unknown[];
  }
  return lists;
}

export type ControlChannelOptions = {
  write(line: string): Promise<StdinWrite>;
  clock: Clock;
  logger: Logger;
  /** Default timeout for our requests. */
  timeoutMs?: number;
  /** Starts our request ids, so they never match a request a previous Telecode made of the same process. */
  idPrefix?: string;
};

export class ControlChannel {
  readonly #opts: ControlChannelOptions;
  readonly #outgoing = new Map<string, Outgoing>();
  readonly #incoming = new Map<string, Incoming>();
  /** Ids of requests answered on this process: what alone tells a repeated request from a new one. */
  readonly #answered = new Set<string>();
  #nextId = 1;
  #closedWith: ClaudeError | undefined;

  constructor(options: ControlChannelOptions) {
    this.#opts = options;
  }

  /** Sends one of our requests and resolves with the CLI's `response` payload. */
  request(
    request: OutgoingControlRequest,
    timeoutMs = this.#opts.timeoutMs ?? 15_000,
  ): Promise<Record<string, unknown>> {
    if (this.#closedWith !== undefined) return Promise.reject(this.#closedWith);
    const id = `${this.#opts.idPrefix ?? ""}${request.subtype === "initialize" ? "init" : "telecode"}_${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = this.#opts.clock.setTimer(timeoutMs, () => {
        if (!this.#outgoing.delete(id)) return;
        reject(
          new ClaudeError(
            "claude.control_timeout",
            `Claude Code did not answer ${request.subtype} within ${Math.round(timeoutMs / 1000)} s; try again, or end the session if it keeps happening.`,
            { details: { subtype: request.subtype } },
          ),
        );
      });
      this.#outgoing.set(id, { subtype: request.subtype, resolve, reject, timer });
      void this.#opts.write(encodeControlRequest(id, request)).then((written) => {
        const pending = this.#outgoing.get(id);
        if (written.ok || !pending) return;
        this.#outgoing.delete(id);
        pending.timer.cancel();
        reject(written.error);
      });
    });
  }

  /** Routes the CLI's answer to one of our requests. Unmatched answers are logged, not thrown. */
  handleResponse(message: WireControlResponse): void {
    const r = message.response;
    const pending = this.#outgoing.get(r.request_id);
    if (!pending) {
      this.#opts.logger.event(
        "claude.control.unmatched_response",
        { requestId: r.request_id, subtype: r.subtype },
        "warn",
      );
      return;
    }
    this.#outgoing.delete(r.request_id);
    pending.timer.cancel();
    if (r.subtype === "success") pending.resolve({ ...r.response, ...relistedBeside(r) });
    else
      pending.reject(
        new ClaudeError("claude.control_failed", `Claude Code refused ${pending.subtype}: ${r.error}.`, {
          details: { errorCode: r.error_code, error: r.error },
        }),
      );
  }

  /**
   * Registers a request from the CLI. Returns its abort signal (aborted on withdrawal or when
   * the channel closes), or undefined when the id was already seen (duplicates get no answer).
   */
  beginIncoming(requestId: string, subtype: string): AbortSignal | undefined {
    if (this.#incoming.has(requestId) || this.#answered.has(requestId)) {
      this.#opts.logger.event("claude.control.duplicate_request", { requestId, subtype }, "warn");
      return undefined;
    }
    const controller = new AbortController();
    if (this.#closedWith !== undefined) controller.abort(this.#closedWith);
    this.#incoming.set(requestId, { subtype, controller });
    return controller.signal;
  }

  /**
   * Writes the answer to a CLI request, once. Resolves with the write's outcome, or undefined
   * (writing nothing) when the request was withdrawn, already answered, or unknown.
   */
  answer(requestId: string, line: string): Promise<StdinWrite | undefined> {
    const entry = this.#incoming.get(requestId);
    if (!entry) return Promise.resolve(undefined);
    this.#incoming.delete(requestId);
    this.#rememberAnswered(requestId);
    return this.#opts.write(line);
  }

  /** A control_cancel_request: the pending request is withdrawn. Returns whether it was pending. */
  withdraw(requestId: string): boolean {
    const entry = this.#incoming.get(requestId);
    if (!entry) return false;
    this.#incoming.delete(requestId);
    entry.controller.abort(WITHDRAWN);
    return true;
  }

  /** The subtype of a pending CLI request, or undefined when it is not pending. */
  subtypeOf(requestId: string): string | undefined {
    return this.#incoming.get(requestId)?.subtype;
  }

  isPending(requestId: string): boolean {
    return this.#incoming.has(requestId);
  }

  /** Ids of CLI requests still waiting for an answer. */
  pendingIncoming(): string[] {
    return [...this.#incoming.keys()];
  }

  get pendingCount(): number {
    return this.#incoming.size;
  }

  #rememberAnswered(requestId: string): void {
    this.#answered.add(requestId);
    if (this.#answered.size > ANSWERED_MEMORY) {
      const oldest = this.#answered.values().next();
      if (oldest.done !== true) this.#answered.delete(oldest.value);
    }
  }

  /** The process is gone or going: our requests fail with `error`, the CLI's are aborted. */
  close(error: ClaudeError): void {
    this.#closedWith ??= error;
    for (const [id, pending] of this.#outgoing) {
      this.#outgoing.delete(id);
      pending.timer.cancel();
      pending.reject(error);
    }
    for (const entry of this.#incoming.values()) entry.controller.abort(error);
  }
}

/**
 * A request whose refusal reads as Claude Code's own words ("No active OAuth flow for server: x"),
 * not as a protocol's ("Claude Code refused mcp_oauth_callback_url: …"): for a request whose
 * refusal a person reads as it is (a sign-in, a side question).
 */
export async function inItsOwnWords(request: Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  try {
    return await request;
  } catch (error) {
    const said = isClaudeError(error, "claude.control_failed") ? error.details["error"] : undefined;
    if (typeof said !== "string" || said.trim() === "") throw error;
    throw new ClaudeError("claude.control_failed", said.trim().replace(/\.?$/, "."), { cause: error });
  }
}
