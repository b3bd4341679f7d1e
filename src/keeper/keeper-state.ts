// The keeper's state file: what a restarted Telecode needs to find a kept CLI and trust that it
// is still the same process (pids with start times), plus what it learnt (session id, CLI
// version, exit). Written atomically (temp file + rename), mode 0600, checked when read back.
import { readFileSync } from "node:fs";
import { writeFileAtomicSync } from "../files/index.js";
import * as z from "zod/mini";
import type { Clock, TimerHandle } from "../ports/index.js";
import { exitRecordSchema, KEEPER_PROTOCOL_VERSION } from "./protocol.js";

const identitySchema = z.object({ pid: z.int(), startTime: z.string() });

export const keeperStateSchema = z.object({
  /** Kept under this name in every version, like `keeper` and `socketPath`: see readKeeperState. */
  protocol: z.int(),
  keeperId: z.string(),
  telecodeVersion: z.string(),
  keeper: identitySchema,
  /** The CLI; `tag` marks it and every process it starts (PROCESS_TAG_VAR), so leftovers can be found. */
  cli: z.extend(identitySchema, { tag: z.string() }),
  cwd: z.string(),
  socketPath: z.string(),
  startedAt: z.string(),
  /** The highest fence a client attached with. */
  fence: z.int().check(z.minimum(0)),
  sessionId: z.nullable(z.string()),
  cliVersion: z.nullable(z.string()),
  stdinOpen: z.boolean(),
  /** Set when the disk refused a log write: the log was dropped and lines up to `throughSeq` may be lost. */
  logDropped: z.nullable(z.object({ code: z.string(), throughSeq: z.int() })),
  exit: z.nullable(z.extend(exitRecordSchema, { lastSeq: z.int(), at: z.string() })),
});
export type KeeperState = z.infer<typeof keeperStateSchema>;

/** A state file as any version wrote it: fully checked when it is ours, else only the fields every version keeps. */
export type StateFile =
  | { kind: "current"; state: KeeperState }
  | { kind: "other_version"; protocol: number; keeper: KeeperState["keeper"] | null; socketPath: string | null }
  | { kind: "unreadable"; problem: string };

/** How long a change learnt from the CLI's output may wait to be written, with others. */
const SOON_MS = 1000;

/**
 * The keeper's state and its file. Nothing is written until `enable` (the pids' start times
 * are known) or after `disable` (the keeper removed its files); a file that cannot be written
 * (a full disk) keeps its last version: the CLI is never held up for it.
 */
export class KeeperStateFile {
  readonly #path: string;
  readonly #clock: Clock;
  #state: KeeperState;
  #enabled = false;
  #soon: TimerHandle | undefined;

  constructor(path: string, initial: KeeperState, clock: Clock) {
    this.#path = path;
    this.#state = initial;
    this.#clock = clock;
  }

  get state(): KeeperState {
    return this.#state;
  }

  enable(): void {
    this.#enabled = true;
  }

  disable(): void {
    this.#enabled = false;
    this.#soon?.cancel();
  }

  /**
   * Changes the state; written at once, or for what the CLI's output teaches ("soon") within a
   * second, so output that changes it often costs one write a second, not one a line.
   */
  update(change: Partial<KeeperState>, when: "now" | "soon" = "now"): void {
    this.#state = { ...this.#state, ...change };
    if (when === "soon") {
      this.#soon ??= this.#clock.setTimer(SOON_MS, () => {
        this.#soon = undefined;
        this.#save();
      });
      return;
    }
    this.#soon?.cancel();
    this.#soon = undefined;
    this.#save();
  }

  /** Changes the state and writes it at once; throws when it cannot be written. */
  commit(change: Partial<KeeperState>): void {
    this.#state = { ...this.#state, ...change };
    this.#soon?.cancel();
    this.#soon = undefined;
    writeKeeperState(this.#path, this.#state);
  }

  #save(): void {
    if (!this.#enabled) return;
    try {
      writeKeeperState(this.#path, this.#state);
    } catch {
      // The in-memory state and the socket still answer clients.
    }
  }
}

export function writeKeeperState(path: string, state: KeeperState): void {
  writeFileAtomicSync(path, `${JSON.stringify(state, null, 2)}\n`);
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
