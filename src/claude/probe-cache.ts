// What probing a CLI binary taught us, kept in one small JSON file in the state directory so a
// known binary (same resolved path, size and mtime) is never probed again, across processes.
// Reading a missing or damaged file gives nothing; writing is atomic (a temp file renamed).
import { readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../files/index.js";

/** One binary, as the file on disk was when it was probed. */
export type BinaryIdentity = { realPath: string; size: number; mtimeMs: number };

/** What a probe learnt about one binary. */
export type ProbeFacts = { version: string; supportsHookEvents: boolean };

type Entry = BinaryIdentity & ProbeFacts;

/** Binaries remembered; an upgrade adds one, so the oldest are dropped. */
const KEPT_ENTRIES = 8;
const FORMAT = 1;

export function identityKey(id: BinaryIdentity): string {
  return `${id.realPath}\0${id.size}\0${id.mtimeMs}`;
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e["realPath"] === "string" &&
    typeof e["size"] === "number" &&
    typeof e["mtimeMs"] === "number" &&
    typeof e["version"] === "string" &&
    typeof e["supportsHookEvents"] === "boolean"
  );
}

/**
 * The remembered binaries; empty when the file is missing, unreadable or not ours. Read
 * synchronously: it is small, read once per process, on the way to the first spawn.
 */
export function readProbeCache(file: string): Map<string, ProbeFacts> {
  const known = new Map<string, ProbeFacts>();
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return known;
  }
  for (const entry of parseEntries(text)) {
    known.set(identityKey(entry), { version: entry.version, supportsHookEvents: entry.supportsHookEvents });
  }
  return known;
}

function parseEntries(text: string): Entry[] {
  try {
    const parsed = JSON.parse(text) as { format?: unknown; binaries?: unknown };
    if (parsed.format !== FORMAT || !Array.isArray(parsed.binaries)) return [];
    return parsed.binaries.filter(isEntry);
  } catch {
    return [];
  }
}

/**
 * Adds one binary to the file (re-read first, so another Telecode's entries are kept), creating
 * its directory (mode 0700) when missing. Rejects with the file system's error.
 */
export async function rememberProbe(file: string, id: BinaryIdentity, facts: ProbeFacts): Promise<void> {
  const key = identityKey(id);
  const current = await readFile(file, "utf8").catch(() => "");
  const others = parseEntries(current).filter((e) => identityKey(e) !== key);
  const binaries = [{ ...id, ...facts }, ...others].slice(0, KEPT_ENTRIES);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify({ format: FORMAT, binaries }, null, 2)}\n`);
}
