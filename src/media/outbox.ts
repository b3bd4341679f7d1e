// The project's outbox: files Claude saves in `.telecode/outbox/` during a run are sent after
// the answer (images as photos), within limits, then moved to `.telecode/sent/`. This file
// plans and moves; sending is the transport's job. Also the system-prompt text about it.
import { constants } from "node:fs";
import { lstat, open, readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { ioErrorWords } from "../domain/index.js";
import { MediaError, type MediaResult } from "./errors.js";
import { denyMatcher, numberedName } from "./file-names.js";
import { ensureOwnFolder } from "./folders.js";
import { readImageInfo } from "./image-format.js";
import { formatBytes, TELEGRAM_PHOTO_MAX_BYTES, TELEGRAM_UPLOAD_MAX_BYTES } from "./sizes.js";

export const OUTBOX_DIR = ".telecode/outbox";
export const SENT_DIR = ".telecode/sent";

export type OutboxLimits = Readonly<{
  maxFiles: number;
  /** Per file; Telegram's 50 MB upload limit caps it. */
  maxFileBytes: number;
  denyGlobs: readonly string[];
}>;

export type OutboxItem = Readonly<{
  name: string;
  path: string;
  sizeBytes: number;
  /** Images Telegram takes as photos (JPEG, PNG, WebP within its photo limits); the rest as documents. */
  sendAs: "photo" | "document";
}>;

export type OutboxPlan = Readonly<{
  send: readonly OutboxItem[];
  /** Left unsent, each with why; they are moved to the sent folder all the same. */
  skipped: readonly Readonly<{ name: string; reason: string }>[];
}>;

/** Creates the outbox (with its `.gitignore`) before a run, so Claude finds it. */
export async function prepareOutbox(projectRoot: string): Promise<MediaResult<string>> {
  return ensureOwnFolder(projectRoot, OUTBOX_DIR);
}

/** What to send from the outbox after a run, oldest name first; an empty plan when there is no outbox. */
export async function planOutbox(projectRoot: string, limits: OutboxLimits): Promise<OutboxPlan> {
  const dir = join(projectRoot, OUTBOX_DIR);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name !== ".gitignore").sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { send: [], skipped: [] };
    throw new MediaError("media.io_failed", `Could not read ${OUTBOX_DIR} (${ioErrorWords(error)}).`, { cause: error });
  }
  const isDenied = denyMatcher(limits.denyGlobs);
  const maxBytes = Math.min(limits.maxFileBytes, TELEGRAM_UPLOAD_MAX_BYTES);
  const send: OutboxItem[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const stats = await lstat(path);
    const glob = isDenied(name);
    if (glob !== undefined) skipped.push({ name, reason: `matches ${glob} (files.deny_globs)` });
    else if (stats.isSymbolicLink()) skipped.push({ name, reason: "is a symbolic link" });
    else if (!stats.isFile()) skipped.push({ name, reason: "is not a file (put files, not folders, in the outbox)" });
    else if (stats.size > maxBytes)
      skipped.push({ name, reason: `is ${formatBytes(stats.size)}, over ${formatBytes(maxBytes)}` });
    else if (send.length >= limits.maxFiles)
      skipped.push({ name, reason: `is past the ${limits.maxFiles} files sent per run` });
    else send.push({ name, path, sizeBytes: stats.size, sendAs: await sendAsOf(path, stats.size) });
  }
  return { send, skipped };
}

async function sendAsOf(path: string, sizeBytes: number): Promise<"photo" | "document"> {
  if (sizeBytes > TELEGRAM_PHOTO_MAX_BYTES) return "document";
  return fitsTelegramPhoto(await readHead(path, 64 * 1024), sizeBytes) ? "photo" : "document";
}

/**
 * Whether Telegram's sendPhoto takes a file: JPEG, PNG or WebP, at most 10 MB, width + height
 * at most 10000, sides at most 20 : 1. `head` holds at least the file's header.
 */
export function fitsTelegramPhoto(head: Uint8Array, sizeBytes: number): boolean {
  if (sizeBytes > TELEGRAM_PHOTO_MAX_BYTES) return false;
  const info = readImageInfo(head);
  if (info === undefined || info.mediaType === "image/gif") return false;
  const { width, height } = info;
  return width + height <= 10_000 && Math.max(width, height) / Math.min(width, height) <= 20;
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The bytes of an item to send, read without following a link put there since the plan. */
export async function readOutboxItem(item: OutboxItem): Promise<Buffer> {
  const handle = await open(item.path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Moves `name` from the outbox to the sent folder (created with its `.gitignore`), as `name`
 * or the first free `name_N`; returns the new path relative to the project.
 */
export async function moveToSent(projectRoot: string, name: string): Promise<string> {
  const folder = await ensureOwnFolder(projectRoot, SENT_DIR);
  if (!folder.ok) throw new MediaError("media.io_failed", `${folder.refusal.message} ${folder.refusal.hint}`);
  for (let n = 0; n < 1000; n++) {
    const target = numberedName(name, n);
    const exists = await lstat(join(folder.value, target)).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await rename(join(projectRoot, OUTBOX_DIR, name), join(folder.value, target));
    return `${SENT_DIR}/${target}`;
  }
  throw new MediaError("media.io_failed", `${SENT_DIR} already holds 1000 files named like ${name}.`);
}

/** Files the sent folder could not take (they stay in the outbox), and why. */
export type LeftInOutbox = Readonly<{ names: readonly string[]; why: string }>;

/**
 * The notice after the outbox's files: what was not sent and why, and what stayed in the outbox
 * (it comes again after the next answer); undefined when all went.
 */
export function outboxNotice(plan: Pick<OutboxPlan, "skipped">, left?: LeftInOutbox): string | undefined {
  const stayed = left !== undefined && left.names.length > 0;
  const parts: string[] = [];
  if (plan.skipped.length > 0) {
    const lines = plan.skipped.map((s) => `- ${s.name} ${s.reason}`);
    parts.push(`Not sent from ${OUTBOX_DIR}/${stayed ? "" : ` (moved to ${SENT_DIR}/)`}:\n${lines.join("\n")}`);
  }
  if (stayed) {
    const lines = left.names.map((name) => `- ${name}`);
    parts.push(
      `Left in ${OUTBOX_DIR}/, as ${SENT_DIR}/ could not take them (${left.why}); they will be sent again after the next answer, until they can be moved or you remove them:\n${lines.join("\n")}`,
    );
  }
  return parts.length === 0 ? undefined : parts.join("\n\n");
}

/** The lines Telecode adds to Claude's system prompt (`--append-system-prompt`) about the outbox. */
export function outboxSystemPrompt(limits: Pick<OutboxLimits, "maxFiles" | "maxFileBytes">): string {
  const maxBytes = Math.min(limits.maxFileBytes, TELEGRAM_UPLOAD_MAX_BYTES);
  return (
    `The person reads you on a phone. To send them a file (a report, a chart, a build), save it in ${OUTBOX_DIR}/ in the project: ` +
    `after your answer Telecode sends what is there (images as photos; at most ${limits.maxFiles} files of ${formatBytes(maxBytes)} each) and moves it to ${SENT_DIR}/.`
  );
}
