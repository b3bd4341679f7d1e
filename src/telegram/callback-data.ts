// Inline-button callback data: versioned ("v1."), compact, unguessable (a random 128-bit
// token that only this process maps to an action), always under Telegram's 64 bytes. The
// codec is pure; the registry holds the token -> action map.

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

export type CallbackRegistryOptions = {
  now: () => number;
  randomBytes?: (size: number) => Uint8Array;
  /**
   * How many tokens are remembered, newest first (default 5000); older taps find nothing.
   * Tokens held for an open decision are not counted and never forgotten until released.
   */
  memory?: number;
};

type Entry<A> = CallbackEntry<A> & { used: boolean; held: boolean };

/**
 * Maps button tokens to actions for one process. Whether a decision is still open is the
 * decision ledger's to say, not this map's: it only remembers what a token stands for, and
 * which first-tap-wins buttons (a mode, a project) were used. A decision's token is held until
 * the decision settles, however many buttons other chats are shown meanwhile: a person may
 * answer days later.
 */
export class CallbackRegistry<A> {
  readonly #entries = new Map<string, Entry<A>>();
  readonly #options: Required<CallbackRegistryOptions>;
  #heldCount = 0;

  constructor(options: CallbackRegistryOptions) {
    this.#options = { randomBytes: nodeRandomBytes, memory: 5000, ...options };
  }

  /**
   * Registers an action shown in `chatId`; returns its token (one per prompt; buttons differ by
   * choice). `held`: remembered until `release`, beside the `memory` newest others.
   */
  register(action: A, chatId: number, options: { held?: boolean } = {}): string {
    let token = newCallbackToken(this.#options.randomBytes);
    while (this.#entries.has(token)) token = newCallbackToken(this.#options.randomBytes);
    this.#add(token, { action, chatId, createdAtMs: this.#options.now(), used: false, held: options.held === true });
    return token;
  }

  /**
   * Registers an open decision's action under a token issued before (by an earlier process,
   * whose message still carries it): its buttons work again, held until `release`. Throws
   * CallbackDataError for a malformed token.
   */
  restore(token: string, action: A, chatId: number, messageId: number): void {
    if (!TOKEN.test(token))
      throw new CallbackDataError(`callback token must be 22 base64url characters, got "${token}"`);
    this.#add(token, { action, chatId, messageId, createdAtMs: this.#options.now(), used: false, held: true });
  }

  /** A held token's decision settled: from now on it is remembered like any other, as the newest. */
  release(token: string): void {
    const entry = this.#entries.get(token);
    if (entry === undefined || !entry.held) return;
    this.#add(token, { ...entry, held: false });
  }

  /** The callback data of one button of a registered prompt. */
  data(token: string, choice: string): string {
    return encodeCallbackData({ token, choice });
  }

  attachMessage(token: string, messageId: number): void {
    const entry = this.#entries.get(token);
    if (entry !== undefined) entry.messageId = messageId;
  }

  /** What a token stands for, while it is remembered. */
  lookup(token: string): CallbackEntry<A> | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    const { used: _used, held: _held, ...rest } = entry;
    return rest;
  }

  /** True for the first call per remembered token: the tap that wins a first-tap-wins button. */
  claimOnce(token: string): boolean {
    const entry = this.#entries.get(token);
    if (entry === undefined || entry.used) return false;
    entry.used = true;
    return true;
  }

  /** A claimed tap whose work failed before it was done: the next tap may try again. */
  unclaim(token: string): void {
    const entry = this.#entries.get(token);
    if (entry !== undefined) entry.used = false;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Adds (or moves to the newest place) `token`, then forgets the oldest tokens not held past `memory`. */
  #add(token: string, entry: Entry<A>): void {
    const before = this.#entries.get(token);
    if (before?.held === true) this.#heldCount--;
    this.#entries.delete(token);
    this.#entries.set(token, entry);
    if (entry.held) this.#heldCount++;
    if (this.#entries.size - this.#heldCount <= this.#options.memory) return;
    for (const [oldest, candidate] of this.#entries) {
      if (candidate.held) continue;
      this.#entries.delete(oldest);
      return;
    }
  }
}
