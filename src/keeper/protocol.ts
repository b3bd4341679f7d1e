// The keeper's socket protocol: one frame per `\n`-terminated line, in both directions.
// A numbered frame `<n> <line>` carries a CLI line (stdout with its sequence number, or a stdin
// line with the client's write number) unescaped; every other frame is a JSON object `{"t":…}`.
// The keeper's log file holds the same frames, so a replay is a copy. Pure: no I/O.
import * as z from "zod/mini";

/**
 * Bumped on any incompatible change. `hello` keeps `t`, `v` and `fence` in every version, so a
 * keeper can always tell a newer (or older) Telecode apart and answer it with `refused`.
 */
export const KEEPER_PROTOCOL_VERSION = 1;

export const KEEPER_SIGNALS = ["SIGINT", "SIGTERM", "SIGKILL"] as const;
export type KeeperSignal = (typeof KEEPER_SIGNALS)[number];

/** Why lines are missing: acknowledged and trimmed, dropped over the log cap, lost to a disk error, or one line over the size limit. */
export const GAP_REASONS = ["acked", "capped", "disk_full", "oversized"] as const;
export type GapReason = (typeof GAP_REASONS)[number];

export const REFUSAL_CODES = ["protocol_mismatch", "stale_fence", "bad_hello"] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

const count = z.int().check(z.minimum(0));

export const exitRecordSchema = z.object({
  code: z.nullable(z.int()),
  signal: z.nullable(z.string()),
  stderrTail: z.string(),
});
/** How the CLI ended, with the last of its stderr. */
export type ExitRecord = z.infer<typeof exitRecordSchema>;

const welcomeSchema = z.object({
  t: z.literal("welcome"),
  v: z.int(),
  keeperId: z.string(),
  fence: count,
  /** The last stdout sequence number so far (0: none yet). */
  lastSeq: count,
  /** The first sequence number still in the log; replay starts with a gap when it is past `fromSeq + 1`. */
  firstSeq: count,
  cliPid: z.int(),
  stdinOpen: z.boolean(),
  sessionId: z.nullable(z.string()),
  cliVersion: z.nullable(z.string()),
  exit: z.nullable(exitRecordSchema),
});
export type Welcome = z.infer<typeof welcomeSchema>;

const gapSchema = z.object({
  t: z.literal("gap"),
  from: count,
  to: count,
  reason: z.enum(GAP_REASONS),
});
export type Gap = z.infer<typeof gapSchema>;

const keeperMessageSchema = z.discriminatedUnion("t", [
  welcomeSchema,
  gapSchema,
  z.object({ t: z.literal("refused"), code: z.enum(REFUSAL_CODES), reason: z.string(), v: z.int() }),
  /** The stdin write numbered `n` reached the CLI's pipe, or failed with `error`. */
  z.object({ t: z.literal("stdin"), n: count, error: z.optional(z.string()) }),
  z.object({ t: z.literal("exit"), lastSeq: count, exit: exitRecordSchema }),
  z.object({ t: z.literal("evicted"), fence: count }),
]);
export type KeeperMessage = z.infer<typeof keeperMessageSchema>;

const helloSchema = z.object({
  t: z.literal("hello"),
  v: z.int(),
  client: z.string().check(z.maxLength(200)),
  fence: count,
  fromSeq: count,
});
export type Hello = z.infer<typeof helloSchema>;

const clientMessageSchema = z.discriminatedUnion("t", [
  helloSchema,
  z.object({ t: z.literal("ack"), seq: count }),
  z.object({ t: z.literal("close_stdin") }),
  z.object({ t: z.literal("signal"), signal: z.enum(KEEPER_SIGNALS) }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** One JSON frame, newline included. */
export function encodeMessage(message: KeeperMessage | ClientMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/** One numbered frame, newline included. `line` must not contain a newline. */
export function encodeNumbered(n: number, line: string): string {
  return `${n} ${line}\n`;
}

export type Decoded<T> = { ok: true; message: T } | { ok: false; problem: string };

function decodeJson<T>(frame: string, schema: z.ZodMiniType<T>): Decoded<T> {
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch {
    return { ok: false, problem: `not JSON: ${frame.slice(0, 80)}` };
  }
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, problem: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
}

/** A keeper's JSON frame, as the client reads it. */
export function decodeKeeperMessage(frame: string): Decoded<KeeperMessage> {
  return decodeJson(frame, keeperMessageSchema);
}

/** A client's JSON frame, as the keeper reads it. */
export function decodeClientMessage(frame: string): Decoded<ClientMessage> {
  return decodeJson(frame, clientMessageSchema);
}

/**
 * The parts of a hello every protocol version shares (`v`, `fence`), read before the rest is
 * checked, so a keeper can refuse another version by name instead of as a malformed hello.
 */
export function peekHello(frame: string): { v: number; fence: number } | undefined {
  try {
    const value = JSON.parse(frame) as { t?: unknown; v?: unknown; fence?: unknown };
    if (value.t !== "hello" || !Number.isInteger(value.v)) return undefined;
    const fence = Number.isSafeInteger(value.fence) && (value.fence as number) >= 0 ? (value.fence as number) : 0;
    return { v: value.v as number, fence };
  } catch {
    return undefined;
  }
}
