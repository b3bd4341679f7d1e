// The keeper's state file: what a restarted Telecode needs to find a kept CLI and trust that it
// is still the same process (pids with start times), plus what it learnt (session id, CLI
// version, exit). Written atomically (temp file + rename), mode 0600, checked when read back.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { exitRecordSchema, KEEPER_PROTOCOL_VERSION } from "./protocol.js";

const identitySchema = z.object({ pid: z.number().int(), startTime: z.string() });

export const keeperStateSchema = z.object({
  /** Kept under this name in every version, like `keeper` and `socketPath`: see readKeeperState. */
  protocol: z.number().int(),
  keeperId: z.string(),
  telecodeVersion: z.string(),
  keeper: identitySchema,
  /** The CLI; `tag` marks it and every process it starts (PROCESS_TAG_VAR), so leftovers can be found. */
  cli: identitySchema.extend({ tag: z.string() }),
  cwd: z.string(),
  socketPath: z.string(),
  startedAt: z.string(),
  /** The highest fence a client attached with. */
  fence: z.number().int().min(0),
  sessionId: z.string().nullable(),
  cliVersion: z.string().nullable(),
  stdinOpen: z.boolean(),
  /** Set when the disk refused a log write: the log was dropped and lines up to `throughSeq` may be lost. */
  logDropped: z.object({ code: z.string(), throughSeq: z.number().int() }).nullable(),
  exit: exitRecordSchema.extend({ lastSeq: z.number().int(), at: z.string() }).nullable(),
});
export type KeeperState = z.infer<typeof keeperStateSchema>;

/** A state file as any version wrote it: fully checked when it is ours, else only the fields every version keeps. */
export type StateFile =
  | { kind: "current"; state: KeeperState }
  | { kind: "other_version"; protocol: number; keeper: KeeperState["keeper"] | null; socketPath: string | null }
  | { kind: "unreadable"; problem: string };

export function writeKeeperState(path: string, state: KeeperState): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

export function readKeeperState(path: string): StateFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { kind: "unreadable", problem: error instanceof Error ? error.message : String(error) };
  }
  const loose = value as { protocol?: unknown; keeper?: unknown; socketPath?: unknown } | null;
  if (loose === null || typeof loose !== "object" || !Number.isInteger(loose.protocol)) {
    return { kind: "unreadable", problem: `${path} has no protocol version` };
  }
  if (loose.protocol !== KEEPER_PROTOCOL_VERSION) {
    const keeper = identitySchema.safeParse(loose.keeper);
    return {
      kind: "other_version",
      protocol: loose.protocol as number,
      keeper: keeper.success ? keeper.data : null,
      socketPath: typeof loose.socketPath === "string" ? loose.socketPath : null,
    };
  }
  const parsed = keeperStateSchema.safeParse(value);
  return parsed.success
    ? { kind: "current", state: parsed.data }
    : {
        kind: "unreadable",
        problem: `${path}: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
      };
}
