// Callback data: what we put on buttons and how a tap (ours, stale, doubled or forged) is read.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CallbackDataError,
  CallbackRegistry,
  decodeCallbackData,
  encodeCallbackData,
  newCallbackToken,
} from "../../src/telegram/index.js";

const token = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((bytes) => newCallbackToken(() => bytes));
const choice = fc.stringMatching(/^[A-Za-z0-9_-]{1,16}$/);

describe("callback data codec", () => {
  it("round-trips every token and choice in under 64 bytes", () => {
    fc.assert(
      fc.property(token, choice, (t, c) => {
        const data = encodeCallbackData({ token: t, choice: c });
        expect(Buffer.byteLength(data, "utf8")).toBeLessThan(64);
        expect(data.startsWith("v1.")).toBe(true);
        expect(decodeCallbackData(data)).toEqual({ ok: true, token: t, choice: c });
      }),
    );
  });

  it("never throws on data from the outside, and accepts only its own shape", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: "binary", maxLength: 70 })), (data) => {
        const decoded = decodeCallbackData(data);
        if (decoded.ok) expect(encodeCallbackData(decoded)).toBe(data);
      }),
    );
    expect(decodeCallbackData(undefined)).toEqual({ ok: false, reason: "malformed" });
    expect(decodeCallbackData(`v2.${"A".repeat(22)}.a`)).toEqual({ ok: false, reason: "version" });
    expect(decodeCallbackData(`v1.${"A".repeat(21)}.a`)).toEqual({ ok: false, reason: "malformed" });
    expect(decodeCallbackData(`v1.${"A".repeat(22)}.a.b`)).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses to encode what it could not decode", () => {
    expect(() => encodeCallbackData({ token: "short", choice: "a" })).toThrow(CallbackDataError);
    expect(() => encodeCallbackData({ token: "A".repeat(22), choice: "x".repeat(17) })).toThrow(/1-16/);
  });

  it("makes tokens that are 128 random bits, never the same twice", () => {
    const tokens = new Set(Array.from({ length: 2000 }, () => newCallbackToken()));
    expect(tokens.size).toBe(2000);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe("CallbackRegistry", () => {
  const registry = (): CallbackRegistry<{ requestId: string }> => new CallbackRegistry({ now: () => 1000 });

  it("remembers what a token stands for, in the chat it was shown in, with its message", () => {
    const reg = registry();
    const t = reg.register({ requestId: "req-1" }, 42);
    reg.attachMessage(t, 7);
    expect(reg.lookup(t)).toEqual({ action: { requestId: "req-1" }, chatId: 42, messageId: 7, createdAtMs: 1000 });
    const decoded = decodeCallbackData(reg.data(t, "allow"));
    expect(decoded).toEqual({ ok: true, token: t, choice: "allow" });
  });

  it("knows nothing of forged tokens", () => {
    const reg = registry();
    reg.register({ requestId: "req-1" }, 42);
    expect(reg.lookup(newCallbackToken())).toBeUndefined();
    expect(reg.size).toBe(1);
  });

  it("lets the first tap win a first-tap-wins button", () => {
    const reg = registry();
    const t = reg.register({ requestId: "pick" }, 1);
    expect(reg.claimOnce(t)).toBe(true);
    expect(reg.claimOnce(t)).toBe(false);
    expect(reg.claimOnce(newCallbackToken())).toBe(false);
    // The winning tap's work failed: the next tap may try again, and then wins alone.
    reg.unclaim(t);
    expect(reg.claimOnce(t)).toBe(true);
    expect(reg.claimOnce(t)).toBe(false);
  });

  it("forgets the oldest tokens beyond its memory", () => {
    const reg = new CallbackRegistry<number>({ now: () => 0, memory: 2 });
    const tokens = [1, 2, 3].map((n) => reg.register(n, 1));
    expect(reg.lookup(tokens[0]!)).toBeUndefined();
    expect(reg.lookup(tokens[2]!)?.action).toBe(3);
    expect(reg.size).toBe(2);
  });

  it("holds an open decision's token however many other buttons are shown, until it is released", () => {
    const reg = new CallbackRegistry<number>({ now: () => 0, memory: 2 });
    const decision = reg.register(0, 1, { held: true });
    const restored = newCallbackToken();
    reg.restore(restored, -1, 1, 9);
    const others = [1, 2, 3, 4, 5].map((n) => reg.register(n, 1));
    expect(reg.lookup(decision)?.action).toBe(0);
    expect(reg.lookup(restored)?.action).toBe(-1);
    expect(reg.lookup(others[2]!)).toBeUndefined();
    expect(reg.size).toBe(4);
    reg.release(decision);
    reg.release(restored);
    // Released, each is remembered as the newest, then forgotten in turn.
    expect(reg.lookup(decision)?.action).toBe(0);
    reg.register(6, 1);
    expect(reg.lookup(decision)).toBeUndefined();
    expect(reg.lookup(restored)?.action).toBe(-1);
    expect(reg.size).toBe(2);
  });
});
