// The slabs the keeper numbers the CLI's lines into, written again once nothing holds their
// frames (the socket, the disk, the newest frames kept in memory) instead of new ones being
// allocated for every few MiB: most of a busy keeper's garbage collection was freeing them.
// Frames in any other buffer (a gap, a disk read) are not tracked: holding them does nothing.

/** Who may still read frames in a slab: each holder holds once and releases once. */
export type FrameHolds = {
  hold(frames: Buffer): void;
  release(frames: Buffer): void;
};

/** Holds that track nothing: every buffer is left to the garbage collector. */
export const UNTRACKED: FrameHolds = Object.freeze({ hold: () => undefined, release: () => undefined });

export class SlabPool implements FrameHolds {
  readonly #slabBytes: number;
  readonly #maxFree: number;
  /** The holders of each slab in use (its writer counts as one until it moves on). */
  readonly #holds = new Map<ArrayBufferLike, { slab: Buffer; count: number }>();
  readonly #free: Buffer[] = [];

  constructor(slabBytes: number, maxFree = 4) {
    this.#slabBytes = slabBytes;
    this.#maxFree = maxFree;
  }

  /** A slab of at least `bytes` for a writer, held by it until it releases the slab. */
  acquire(bytes: number): Buffer {
    const at = this.#free.findIndex((slab) => slab.length >= bytes);
    const slab = at >= 0 ? this.#free.splice(at, 1)[0] : undefined;
    // allocUnsafeSlow: a buffer of its own, never a slice of Node's shared pool.
    const fresh = slab ?? Buffer.allocUnsafeSlow(Math.max(this.#slabBytes, bytes));
    this.#holds.set(fresh.buffer, { slab: fresh, count: 1 });
    return fresh;
  }

  hold(frames: Buffer): void {
    const entry = this.#holds.get(frames.buffer);
    if (entry !== undefined) entry.count += 1;
  }

  release(frames: Buffer): void {
    const entry = this.#holds.get(frames.buffer);
    if (entry === undefined) return;
    entry.count -= 1;
    if (entry.count > 0) return;
    this.#holds.delete(frames.buffer);
    if (this.#free.length < this.#maxFree) this.#free.push(entry.slab);
  }
}
