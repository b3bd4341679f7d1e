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

  it("lets the first tap win; a second tap reads who settled it", () => {
    const reg = registry();
    const t = reg.register({ requestId: "req-1" }, 42);
    reg.attachMessage(t, 7);
    const first = reg.claim(reg.data(t, "allow"), "Alice");
    expect(first).toEqual({
      kind: "claimed",
      token: t,
      choice: "allow",
      entry: { action: { requestId: "req-1" }, chatId: 42, messageId: 7, createdAtMs: 1000 },
    });
    expect(reg.claim(reg.data(t, "deny"), "Bob")).toEqual({ kind: "already", token: t, settledBy: "Alice" });
    expect(reg.size).toBe(0);
  });

  it("reads forged, stale and foreign data as such", () => {
    const reg = registry();
    reg.register({ requestId: "req-1" }, 42);
    expect(reg.claim(encodeCallbackData({ token: newCallbackToken(), choice: "allow" }), "Mallory")).toEqual({
      kind: "stale",
    });
    expect(reg.claim(`v0.${"A".repeat(22)}.x`, "Old client")).toEqual({ kind: "stale" });
    expect(reg.claim("approve:req-1", "Mallory")).toEqual({ kind: "malformed" });
    expect(reg.size).toBe(1);
  });

  it("settles without a tap (a typed answer, a withdrawal) and drops what a session leaves behind", () => {
    const reg = registry();
    const typed = reg.register({ requestId: "q" }, 1);
    const gone = reg.register({ requestId: "a" }, 2);
    expect(reg.settle(typed, "typed answer")?.action).toEqual({ requestId: "q" });
    expect(reg.claim(reg.data(typed, "o1"), "Alice")).toEqual({
      kind: "already",
      token: typed,
      settledBy: "typed answer",
    });
    expect(reg.drop((entry) => entry.chatId === 2).map((e) => e.action)).toEqual([{ requestId: "a" }]);
    expect(reg.claim(reg.data(gone, "allow"), "Alice")).toEqual({ kind: "stale" });
  });

  it("forgets the oldest settled tokens beyond its memory", () => {
    const reg = new CallbackRegistry<number>({ now: () => 0, settledMemory: 2 });
    const tokens = [1, 2, 3].map((n) => reg.register(n, 1));
    for (const t of tokens) reg.settle(t, "x");
    expect(reg.claim(reg.data(tokens[0]!, "a"), "y")).toEqual({ kind: "stale" });
    expect(reg.claim(reg.data(tokens[2]!, "a"), "y").kind).toBe("already");
  });
});
