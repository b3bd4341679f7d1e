// Where the keeper's log segments live: files in one directory, mode 0600. Writes are queued,
// gathered for a few milliseconds and done off the event loop (writev on libuv's pool), in
// order, so a slow disk never holds up the lines a client is waiting for and a trickle of lines
// costs few wake-ups; removals wait for the writes before them.
import { closeSync, openSync, readSync, rmSync, writev } from "node:fs";
import { join } from "node:path";
import type { Clock, TimerHandle } from "../ports/index.js";

/** What the log needs of its storage. */
export type LogStorage = {
  /** Queues `data` for the end of the named file (created if missing); `done` says later (never during the call) once it is written, or why not. In order. */
  append(name: string, data: Buffer, done: (error: Error | undefined) => void): void;
  /** Up to `length` already written bytes of the named file from `position`; throws on failure. */
  read(name: string, position: number, length: number): Buffer;
  /** Removes the named file once the writes queued before are done; never fails. */
  remove(name: string): void;
};

type Op =
  | { kind: "write"; name: string; data: Buffer; done: (error: Error | undefined) => void }
  | { kind: "remove"; name: string };

/** Writes wait at most this long to be gathered with the next ones… */
const GATHER_MS = 20;
/** …or until this much is queued. */
const GATHER_BYTES = 256 * 1024;

/** Segment files in `dir` (which must exist); one write in flight, the writes queued behind it sent together. */
export function createFileStorage(dir: string, clock: Clock): LogStorage {
  const queue: Op[] = [];
  let queuedBytes = 0;
  let gathering: TimerHandle | undefined;
  let busy = false;
  let open: { name: string; fd: number } | undefined;
  const closeOpen = (): void => {
    if (open !== undefined) closeSync(open.fd);
    open = undefined;
  };

  const next = (): void => {
    for (let op = queue[0]; !busy && op !== undefined; op = queue[0]) {
      queue.shift();
      if (op.kind === "remove") {
        try {
          if (open?.name === op.name) closeOpen();
          rmSync(join(dir, op.name), { force: true });
        } catch {
          // Nothing to free, or nothing we can do: the segment is forgotten either way.
        }
        continue;
      }
      const writes = [op];
      for (let more = queue[0]; more?.kind === "write" && more.name === op.name; more = queue[0]) {
        queue.shift();
        writes.push(more);
      }
      for (const write of writes) queuedBytes -= write.data.length;
      const finish = (error: Error | undefined): void => {
        busy = false;
        for (const write of writes) write.done(error);
        next();
      };
      try {
        if (open?.name !== op.name) {
          closeOpen();
          open = { name: op.name, fd: openSync(join(dir, op.name), "a", 0o600) };
        }
      } catch (error) {
        busy = true;
        process.nextTick(() => finish(error as Error));
        return;
      }
      busy = true;
      writeAll(
        open.fd,
        writes.map((w) => w.data),
        finish,
      );
    }
  };

  return {
    append(name, data, done) {
      queue.push({ kind: "write", name, data, done });
      queuedBytes += data.length;
      if (queuedBytes >= GATHER_BYTES) {
        gathering?.cancel();
        gathering = undefined;
        next();
      } else
        gathering ??= clock.setTimer(GATHER_MS, () => {
          gathering = undefined;
          next();
        });
    },
    read(name, position, length) {
      const fd = openSync(join(dir, name), "r");
      try {
        const buffer = Buffer.allocUnsafe(length);
        return buffer.subarray(0, readSync(fd, buffer, 0, length, position));
      } finally {
        closeSync(fd);
      }
    },
    remove(name) {
      queue.push({ kind: "remove", name });
      next();
    },
  };
}

/** writev until every byte is written (a write may take only part). */
function writeAll(fd: number, buffers: Buffer[], done: (error: Error | undefined) => void): void {
  writev(fd, buffers, (error, written) => {
    if (error !== null) return done(error);
    let rest = written;
    while (buffers.length > 0 && rest >= (buffers[0]?.length ?? 0)) rest -= buffers.shift()?.length ?? 0;
    if (buffers.length === 0) return done(undefined);
    buffers[0] = (buffers[0] as Buffer).subarray(rest);
    writeAll(fd, buffers, done);
  });
}
