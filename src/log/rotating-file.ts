// A small size-rotated log file: appends whole lines synchronously (so a crash loses
// nothing already logged) and keeps `maxFiles` older files as NAME.1 … NAME.N. A line that
// cannot be written (a full disk) is dropped, never thrown at whoever logged it, and the first
// line written again says how many were lost.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ioErrorWords } from "../domain/index.js";

export type RotatingFileOptions = {
  dir: string;
  fileName?: string;
  /** Rotate before a write would take the current file past this size. */
  maxBytes?: number;
  /** Rotated files kept besides the current one. */
  maxFiles?: number;
  /** Told of the first write that fails after one that worked; the lines are dropped meanwhile. */
  onWriteFailed?: (error: unknown) => void;
};

export class RotatingFileStream {
  readonly path: string;
  private readonly maxBytes: number;
  private readonly maxFiles: number;
  private readonly onWriteFailed: ((error: unknown) => void) | undefined;
  private fd: number;
  private size: number;
  /** Lines dropped since the last write that worked, and why the first was. */
  private lost = 0;
  private lostReason = "";
  /** A write failed partway: the file ends inside a line. */
  private brokenLine = false;
  private closed = false;

  constructor(options: RotatingFileOptions) {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.path = join(options.dir, options.fileName ?? "telecode.log");
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.maxFiles = Math.max(1, options.maxFiles ?? 5);
    this.onWriteFailed = options.onWriteFailed;
    this.fd = openSync(this.path, "a", 0o600);
    this.size = fstatSync(this.fd).size;
  }

  /** Appends `chunk` (normally one JSON line); never splits a line across files, never throws. */
  write(chunk: string): boolean {
    if (this.closed) return true;
    try {
      // After a failure the file is opened again: it may have been replaced or made writable.
      if (this.lost > 0) this.reopen();
      const bytes = Buffer.byteLength(chunk);
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      if (this.brokenLine) this.append("\n");
      this.brokenLine = false;
      if (this.lost > 0) this.append(lostLinesLine(this.lost, this.lostReason));
      this.lost = 0;
      this.append(chunk);
    } catch (error) {
      if (this.lost === 0) {
        this.lostReason = ioErrorWords(error);
        this.onWriteFailed?.(error);
      }
      this.lost++;
    }
    return true;
  }

  close(): void {
    this.closed = true;
    this.closeFile();
  }

  private closeFile(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  /** Writes all of `text`, or throws (with brokenLine set when part of it went in). */
  private append(text: string): void {
    const buffer = Buffer.from(text);
    let written = 0;
    try {
      while (written < buffer.length) written += writeSync(this.fd, buffer, written);
    } finally {
      this.size += written;
      if (written > 0 && written < buffer.length) this.brokenLine = true;
    }
  }

  private reopen(): void {
    this.closeFile();
    this.fd = openSync(this.path, "a", 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.closeFile();
    const oldest = `${this.path}.${this.maxFiles}`;
    if (existsSync(oldest)) rmSync(oldest);
    for (let n = this.maxFiles - 1; n >= 1; n--) {
      const from = `${this.path}.${n}`;
      if (existsSync(from)) renameSync(from, `${this.path}.${n + 1}`);
    }
    renameSync(this.path, `${this.path}.1`);
    this.fd = openSync(this.path, "a", 0o600);
    this.size = 0;
  }
}

/** The log line (pino's shape, at warn) saying how many lines before it were lost, and why. */
function lostLinesLine(lost: number, reason: string): string {
  const line = { level: 40, time: new Date().toISOString(), pid: process.pid, event: "log.lines_lost", lost, reason };
  return `${JSON.stringify(line)}\n`;
}
