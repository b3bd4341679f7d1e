// The stderr tail keeps only the newest bytes, however much a chatty CLI prints.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STDERR_TAIL_BYTES, StderrTail } from "../../src/process/index.js";

describe("StderrTail", () => {
  it("keeps the whole text while it is short", () => {
    const tail = new StderrTail();
    tail.push(Buffer.from("error: unknown option '--bogus'\n"));
    expect(tail.text()).toBe("error: unknown option '--bogus'");
  });

  it("keeps exactly the last 64 KiB of a long stream, the newest line included", () => {
    const tail = new StderrTail();
    let all = "";
    for (let i = 0; i < 5_000; i++) {
      const chunk = `line ${i} ${"x".repeat(40)}\n`;
      all += chunk;
      tail.push(Buffer.from(chunk));
    }
    expect(STDERR_TAIL_BYTES).toBe(64 * 1024);
    expect(tail.text()).toBe(all.slice(all.length - STDERR_TAIL_BYTES).trim());
    expect(tail.text().endsWith("line 4999 " + "x".repeat(40))).toBe(true);
  });

  it("is the suffix of everything pushed, under any chunking", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "b", "\n", " "), maxLength: 40 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 64 }),
        (chunks, limit) => {
          const tail = new StderrTail(limit);
          for (const c of chunks) tail.push(Buffer.from(c));
          const all = chunks.join("");
          expect(tail.text()).toBe(all.slice(Math.max(0, all.length - limit)).trim());
        },
      ),
    );
  });
});
