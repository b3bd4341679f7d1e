// A small size-rotated log file: appends whole lines synchronously (so a crash loses
// nothing already logged) and keeps `maxFiles` older files as NAME.1 … NAME.N.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

export type RotatingFileOptions = {
  dir: string;
  fileName?: string;
  /** Rotate before a write would take the current file past this size. */
  maxBytes?: number;
  /** Rotated files kept besides the current one. */
  maxFiles?: number;
};

export class RotatingFileStream {
  readonly path: string;
  private readonly maxBytes: number;
  private readonly maxFiles: number;
  private fd: number;
  private size: number;

  constructor(options: RotatingFileOptions) {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.path = join(options.dir, options.fileName ?? "telecode.log");
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.maxFiles = Math.max(1, options.maxFiles ?? 5);
    this.fd = openSync(this.path, "a", 0o600);
    this.size = fstatSync(this.fd).size;
  }

  /** Appends `chunk` (normally one JSON line); never splits a line across files. */
  write(chunk: string): boolean {
    const bytes = Buffer.byteLength(chunk);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    writeSync(this.fd, chunk);
    this.size += bytes;
    return true;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private rotate(): void {
    closeSync(this.fd);
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
