// What the CLI's transcripts (CONFIG/projects/<slug>/<session>.jsonl) tell about a project's
// conversations: which one "continue the latest one" means (the one whose own lines say it was
// active last; not the file time: a process appends a line without a time when it closes, which
// makes a session look newer than one a person used since), and whether one can be resumed.
import { open, readdir, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { WrittenDown } from "../domain/index.js";

/** The CLI folds every character but ASCII letters and digits to "-"; longer names get a hash suffix. */
const SLUG_MAX_CHARS = 200;
/** A line's time can trail its file's time by the file system's granularity. */
const MTIME_SLACK_MS = 2_000;
const FIRST_TAIL_BYTES = 64 * 1024;

function projectsDir(env: NodeJS.ProcessEnv): string {
  const configDir = env["CLAUDE_CONFIG_DIR"];
  if (configDir !== undefined && configDir !== "") return join(configDir, "projects");
  return join(env["HOME"] ?? homedir(), ".claude", "projects");
}

async function transcriptDirs(root: string, cwd: string): Promise<string[]> {
  const slug = cwd.replace(/[^A-Za-z0-9]/g, "-");
  if (slug.length <= SLUG_MAX_CHARS) return [join(root, slug)];
  const prefix = slug.slice(0, SLUG_MAX_CHARS);
  const names = await readdir(root).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(prefix)).map((name) => join(root, name));
}

/** The time (epoch ms) of the last line in `text` that carries one, reading from the end. */
function lastLineTime(text: string, complete: boolean): number | undefined {
  const lines = text.split("\n");
  // Without the file's start, the first piece may be the end of a longer line.
  const first = complete ? 0 : 1;
  for (let i = lines.length - 1; i >= first; i--) {
    const line = lines[i];
    if (line === undefined || !line.includes('"timestamp"')) continue;
    try {
      const parsed: unknown = JSON.parse(line);
      const time =
        typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["timestamp"] : undefined;
      const ms = typeof time === "string" ? Date.parse(time) : Number.NaN;
      if (Number.isFinite(ms)) return ms;
    } catch {
      // a torn or foreign line: look further back
    }
  }
  return undefined;
}

/** The last activity recorded in one transcript, reading ever larger tails; undefined if none. */
async function lastActivityMs(file: string, sizeBytes: number): Promise<number | undefined> {
  const handle = await open(file, "r");
  try {
    for (let tail = FIRST_TAIL_BYTES; ; tail *= 4) {
      const length = Math.min(tail, sizeBytes);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, sizeBytes - length);
      const complete = length === sizeBytes;
      const time = lastLineTime(buffer.subarray(0, bytesRead).toString("utf8"), complete);
      if (time !== undefined || complete) return time;
    }
  } finally {
    await handle.close();
  }
}

/** The folders that may hold `cwd`'s transcripts: the CLI names them after the real directory. */
async function projectDirs(cwd: string, env: NodeJS.ProcessEnv): Promise<Set<string>> {
  const real = await realpath(cwd).catch(() => cwd);
  const roots = real === cwd ? [cwd] : [cwd, real];
  return new Set((await Promise.all(roots.map((dir) => transcriptDirs(projectsDir(env), dir)))).flat());
}

/** A session id the CLI makes (a UUID); anything else names no transcript file. */
const SESSION_ID = /^[A-Za-z0-9-]{1,100}$/;
/** A conversation starts with a user message. */
const USER_LINE = Buffer.from('"type":"user"');
/** Read a piece at a time: a conversation's first message is near the start. */
const SCAN_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * What the CLI wrote down of a session: nothing it can resume ("nothing": no transcript, or
 * none with a message), its conversation, or its conversation holding the message written
 * with `messageUuid` ("message"). A CLI killed moments after taking a message may not have
 * written it yet, or only the start of its line; `--resume` of a session with no whole message
 * fails with "No conversation found".
 * Never throws: an unreadable transcript counts as nothing written.
 */
export async function writtenDown(
  cwd: string,
  sessionId: string,
  env: NodeJS.ProcessEnv,
  messageUuid?: string,
): Promise<WrittenDown> {
  if (!SESSION_ID.test(sessionId)) return "nothing";
  const message = messageUuid === undefined ? undefined : Buffer.from(`"uuid":${JSON.stringify(messageUuid)}`);
  let found: WrittenDown = "nothing";
  for (const dir of await projectDirs(cwd, env)) {
    const seen = await scanFile(
      join(dir, `${sessionId}.jsonl`),
      message === undefined ? [USER_LINE] : [USER_LINE, message],
    );
    if (message !== undefined && seen.has(message)) return "message";
    if (seen.has(USER_LINE)) found = "conversation";
  }
  return found;
}

/**
 * Which of `needles` occur in a complete line of `file` (one its newline ends), read a chunk at
 * a time; none when it cannot be read. A CLI killed while writing leaves its last line cut, and
 * a cut user line does not make a conversation it can resume.
 */
async function scanFile(file: string, needles: readonly Buffer[]): Promise<Set<Buffer>> {
  const seen = new Set<Buffer>();
  /** Found, but no newline has come after it yet. */
  const unended = new Set<Buffer>();
  const handle = await open(file, "r").catch(() => undefined);
  if (handle === undefined) return seen;
  // Each chunk starts with the previous one's last bytes, so a needle across the cut is found.
  const overlap = Math.max(...needles.map((n) => n.length)) - 1;
  const buffer = Buffer.alloc(SCAN_BYTES + overlap);
  try {
    let kept = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, kept, SCAN_BYTES, null);
      if (bytesRead === 0) return seen;
      const filled = buffer.subarray(0, kept + bytesRead);
      for (const needle of needles) {
        if (seen.has(needle)) continue;
        const at = filled.indexOf(needle);
        if (at < 0 && !unended.has(needle)) continue;
        if (filled.indexOf(NEWLINE, at < 0 ? kept : at + needle.length) < 0) unended.add(needle);
        else seen.add(needle);
      }
      if (seen.size === needles.length) return seen;
      kept = Math.min(overlap, filled.length);
      filled.copy(buffer, 0, filled.length - kept);
    }
  } catch {
    return new Set();
  } finally {
    await handle.close();
  }
}

/**
 * The id of the session last active in `cwd`, by the times the CLI wrote in its transcripts
 * (whoever ran it: Telecode, `telecode run`, plain `claude`), among those it can resume (a whole
 * message written down); undefined when there is none.
 * `env` is the CLI's environment (HOME or CLAUDE_CONFIG_DIR say where transcripts are). Never
 * throws: an unreadable folder or file counts as no session.
 */
export async function latestSessionId(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const files: { path: string; id: string; mtimeMs: number; size: number }[] = [];
  for (const dir of await projectDirs(cwd, env)) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith(".jsonl")) continue;
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile() === true && info.size > 0)
        files.push({ path, id: name.slice(0, -".jsonl".length), mtimeMs: info.mtimeMs, size: info.size });
    }
  }
  // A line's time is never later than its file's: once the best time beats a file's, it beats the rest.
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  let best: { id: string; atMs: number } | undefined;
  for (const file of files) {
    if (best !== undefined && file.mtimeMs + MTIME_SLACK_MS < best.atMs) break;
    const atMs = await lastActivityMs(file.path, file.size).catch(() => undefined);
    if (atMs === undefined || (best !== undefined && atMs <= best.atMs)) continue;
    // A CLI killed while writing its first lines leaves a session --resume cannot open.
    if ((await scanFile(file.path, [USER_LINE])).has(USER_LINE)) best = { id: file.id, atMs };
  }
  return best?.id;
}
