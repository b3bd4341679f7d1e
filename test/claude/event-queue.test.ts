// The event queue keeps order, drops nothing, and asks to stop/resume reading at its marks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EventQueue } from "../../src/claude/event-queue.js";

describe("EventQueue", () => {
  it("delivers every item in order, with pressure on above high water and off below low water", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { maxLength: 300 }),
        fc.integer({ min: 1, max: 7 }),
        async (items, every) => {
          const pressure: boolean[] = [];
          const q = new EventQueue<number>({
            highWater: 16,
            lowWater: 4,
            onPressure: (full) => pressure.push(full),
            onAbandon: () => undefined,
          });
          const it = q.iterate();
          const got: number[] = [];
          for (const [i, item] of items.entries()) {
            q.push(item);
            expect(q.size).toBeLessThanOrEqual(16);
            if (q.size >= 16 || i % every === 0) {
              while (q.size > 0) got.push((await it.next()).value as number);
            }
          }
          q.end();
          for (let r = await it.next(); r.done !== true; r = await it.next()) got.push(r.value);
          expect(got).toEqual(items);
          pressure.forEach((full, i) => expect(full).toBe(i % 2 === 0));
        },
      ),
    );
  });

  it("tells its owner when the consumer stops early, and refuses a second consumer", async () => {
    let abandoned = 0;
    const q = new EventQueue<string>({ onPressure: () => undefined, onAbandon: () => void (abandoned += 1) });
    q.push("a");
    for await (const item of q.iterate()) {
      expect(item).toBe("a");
      break;
    }
    expect(abandoned).toBe(1);
    expect(() => q.iterate()).toThrow(/only once/);
  });
});
