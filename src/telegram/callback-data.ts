// Inline-button callback data: versioned ("v1."), compact, unguessable (a random 128-bit
// token that only this process maps to an action), always under Telegram's 64 bytes. The
// codec is pure; the registry holds the token -> action map and "first tap wins".

import { randomBytes as nodeRandomBytes } from "node:crypto";

/** Telegram refuses callback_data over 64 bytes; ours stays well under. */
export const CALLBACK_DATA_MAX_BYTES = 64;

const VERSION = "v1";
const TOKEN_BYTES = 16;
const TOKEN = /^[A-Za-z0-9_-]{22}$/;
const CHOICE = /^[A-Za-z0-9_-]{1,16}$/;

export type CallbackData = { token: string; choice: string };

export type DecodedCallbackData =
  | { ok: true; token: string; choice: string }
  /** "version": an older or newer Telecode's button; "malformed": not ours at all. */
  | { ok: false; reason: "version" | "malformed" };

export class CallbackDataError extends Error {
  readonly code = "telegram.callback_data";
}

/** "v1.<token>.<choice>": at most 42 ASCII bytes. Throws CallbackDataError for a bad token or choice (a bug). */
export function encodeCallbackData(data: CallbackData): string {
  if (!TOKEN.test(data.token))
    throw new CallbackDataError(`callback token must be 22 base64url characters, got "${data.token}"`);
  if (!CHOICE.test(data.choice))
    throw new CallbackDataError(`callback choice must be 1-16 of [A-Za-z0-9_-], got "${data.choice}"`);
  return `${VERSION}.${data.token}.${data.choice}`;
}

/** Reads callback data from any update; never throws (anyone can send any data). */
export function decodeCallbackData(data: string | undefined): DecodedCallbackData {
  if (data === undefined || data.length > CALLBACK_DATA_MAX_BYTES) return { ok: false, reason: "malformed" };
  const parts = data.split(".");
  if (parts.length !== 3) return { ok: false, reason: "malformed" };
  const [version, token, choice] = parts as [string, string, string];
  if (version !== VERSION)
    return /^v\d{1,3}$/.test(version) ? { ok: false, reason: "version" } : { ok: false, reason: "malformed" };
  if (!TOKEN.test(token) || !CHOICE.test(choice)) return { ok: false, reason: "malformed" };
  return { ok: true, token, choice };
}

/**
 * The grammY trigger for one kind of button: this version's data whose choice matches
 * `choicePattern` (a regular expression source, e.g. "cancel" or "m\\d{1,2}"). Each kind of
 * button has a choice shape of its own, so its handler is found from the data alone.
 */
export function buttonTrigger(choicePattern: string): RegExp {
  return new RegExp(`^${VERSION}\\.[A-Za-z0-9_-]{22}\\.(?:${choicePattern})$`);
}

/** A fresh unguessable token: 16 random bytes, base64url (22 characters). */
export function newCallbackToken(randomBytes: (size: number) => Uint8Array = nodeRandomBytes): string {
  return Buffer.from(randomBytes(TOKEN_BYTES)).toString("base64url");
}

export type CallbackEntry<A> = {
  action: A;
  chatId: number;
  /** The message carrying the buttons, once sent. */
  messageId?: number;
  createdAtMs: number;
};

export type CallbackLookup<A> =
  /** The tap wins: the entry is now claimed, later taps see "claimed". */
  | { kind: "claimed"; token: string; choice: string; entry: CallbackEntry<A> }
  /** Someone tapped first (or the action was settled another way). */
  | { kind: "already"; token: string; settledBy: string }
  /** Unknown token: from before a restart, withdrawn, expired, or forged. */
  | { kind: "stale" }
  | { kind: "malformed" };

export type CallbackRegistryOptions = {
  now: () => number;
  randomBytes?: (size: number) => Uint8Array;
  /** How many settled tokens are remembered to answer "already answered" (default 1000). */
  settledMemory?: number;
};

/**
 * Maps button tokens to actions for one process. A token is settled once: by the first
 * tap (`claim`) or by whoever else ends the action (`settle`, e.g. a typed answer, a
 * withdrawal, the session's end).
 */
export class CallbackRegistry<A> {
  readonly #pending = new Map<string, CallbackEntry<A>>();
  readonly #settled = new Map<string, string>();
  readonly #options: Required<CallbackRegistryOptions>;

  constructor(options: CallbackRegistryOptions) {
    this.#options = { randomBytes: nodeRandomBytes, settledMemory: 1000, ...options };
  }

  /** Registers an action shown in `chatId`; returns its token (one per prompt; buttons differ by choice). */
  register(action: A, chatId: number): string {
    let token = newCallbackToken(this.#options.randomBytes);
    while (this.#pending.has(token) || this.#settled.has(token)) token = newCallbackToken(this.#options.randomBytes);
    this.#pending.set(token, { action, chatId, createdAtMs: this.#options.now() });
    return token;
  }

  /** The callback data of one button of a registered prompt. */
  data(token: string, choice: string): string {
    return encodeCallbackData({ token, choice });
  }

  attachMessage(token: string, messageId: number): void {
    const entry = this.#pending.get(token);
    if (entry !== undefined) entry.messageId = messageId;
  }

  /** Resolves a tap's data: the first tap on a pending token claims it. */
  claim(data: string | undefined, by: string): CallbackLookup<A> {
    const decoded = decodeCallbackData(data);
    if (!decoded.ok) return decoded.reason === "version" ? { kind: "stale" } : { kind: "malformed" };
    const entry = this.#pending.get(decoded.token);
    if (entry === undefined) {
      const settledBy = this.#settled.get(decoded.token);
      return settledBy === undefined ? { kind: "stale" } : { kind: "already", token: decoded.token, settledBy };
    }
    this.settle(decoded.token, by);
    return { kind: "claimed", token: decoded.token, choice: decoded.choice, entry };
  }

  /** Ends a pending action without a tap; later taps read "already" with `by`. Returns the entry if it was pending. */
  settle(token: string, by: string): CallbackEntry<A> | undefined {
    const entry = this.#pending.get(token);
    if (entry === undefined) return undefined;
    this.#pending.delete(token);
    this.#settled.set(token, by);
    if (this.#settled.size > this.#options.settledMemory) {
      const oldest = this.#settled.keys().next().value;
      if (oldest !== undefined) this.#settled.delete(oldest);
    }
    return entry;
  }

  /** Forgets pending actions matching `test` (e.g. a session ended); they read "stale" afterwards. */
  drop(test: (entry: CallbackEntry<A>, token: string) => boolean): CallbackEntry<A>[] {
    const dropped: CallbackEntry<A>[] = [];
    for (const [token, entry] of this.#pending) {
      if (test(entry, token)) {
        this.#pending.delete(token);
        dropped.push(entry);
      }
    }
    return dropped;
  }

  pending(token: string): CallbackEntry<A> | undefined {
    return this.#pending.get(token);
  }

  get size(): number {
    return this.#pending.size;
  }
}
