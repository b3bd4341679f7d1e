// What `telecode keeper` is started with (read as one JSON object from its stdin, so the CLI's
// environment never shows in a process listing) and the one line it answers on stdout.
import { isAbsolute } from "node:path";
import * as z from "zod/mini";
import { KEEPER_ID_PATTERN } from "./keeper-paths.js";

const absolutePath = z.string().check(z.refine(isAbsolute, { error: "must be an absolute path" }));

export const keeperSpecSchema = z.object({
  keeperId: z.string().check(z.regex(KEEPER_ID_PATTERN)),
  cli: z.object({
    path: z.string().check(z.minLength(1)),
    args: z.array(z.string()),
    cwd: absolutePath,
    env: z.record(z.string(), z.string()),
  }),
  paths: z.object({
    dir: absolutePath,
    statePath: absolutePath,
    logDir: absolutePath,
    stderrPath: absolutePath,
    socketPath: absolutePath,
  }),
  /** The log's size cap. */
  logCapBytes: z.int().check(z.minimum(4096)),
  /** After the CLI exited, how long the log waits for a client to take it. */
  exitGraceMs: z.int().check(z.minimum(0)),
  telecodeVersion: z.string(),
  /** Its own stderr goes nowhere (it was started ahead of need): what it throws is written to paths.stderrPath. */
  stderrToFile: z.optional(z.boolean()),
});
export type KeeperSpec = z.infer<typeof keeperSpecSchema>;

/** The keeper's one stdout line: running (with its pids), or why it could not start. */
export type KeeperReady =
  { ready: true; pid: number; cliPid: number } | { ready: false; code: string; message: string };

export const DEFAULT_EXIT_GRACE_MS = 10 * 60 * 1000;

/** Checks a spec read from stdin; the error names each bad field. */
export function parseKeeperSpec(text: string): { ok: true; spec: KeeperSpec } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: "the keeper's stdin did not hold a JSON spec" };
  }
  const parsed = keeperSpecSchema.safeParse(value);
  if (parsed.success) return { ok: true, spec: parsed.data };
  return { ok: false, problem: parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ") };
}
