// The keeper's slab reuse: frames in a slab are never written over while anyone holds them (the
// socket, the disk, the newest frames kept in memory); a slab goes back to the pool only when
// its last holder and its writer let go, and is then written again instead of a new one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FrameBuilder } from "../../src/keeper/frame-splitter.js";
import { SlabPool } from "../../src/keeper/slab-pool.js";

describe("the slab pool", () => {
  it("gives a slab back only once every holder released it", () => {
    const pool = new SlabPool(64);
    const slab = pool.acquire(16);
    const frames = slab.subarray(0, 8);
    pool.hold(frames);
    pool.release(slab); // the writer moves on
    expect(pool.acquire(16)).not.toBe(slab);
    pool.release(frames); // the last holder
    expect(pool.acquire(16)).toBe(slab);
    // Buffers that are not its slabs are left alone.
    pool.hold(Buffer.from("gap"));
    pool.release(Buffer.from("gap"));
  });

  it("never writes over frames someone still holds, however batches fall across slabs", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 40 }), fc.boolean()), { minLength: 1, maxLength: 200 }),
        (batches) => {
          const pool = new SlabPool(64, 2);
          const builder = new FrameBuilder(pool);
          const held: { frames: Buffer; text: string }[] = [];
          builder.begin(0);
          batches.forEach(([line, keep], i) => {
            const bytes = Buffer.from(line);
            builder.add(i + 1, bytes, 0, bytes.length);
            const frames = builder.take();
            const text = frames.toString();
            expect(text).toBe(`${i + 1} ${line}\n`);
            if (keep) {
              pool.hold(frames);
              held.push({ frames, text });
            }
            // Release the oldest holds now and then, as the socket and disk finish.
            if (held.length > 3) {
              const done = held.shift();
              if (done !== undefined) pool.release(done.frames);
            }
            for (const h of held) expect(h.frames.toString()).toBe(h.text);
          });
        },
      ),
    );
  });
});
