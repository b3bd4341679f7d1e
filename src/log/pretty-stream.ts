// Turns the logger's JSON lines into short human lines for a terminal:
// "12:04:05 INFO  claude.spawned runId=r1 sessionId=s1 — message". Formatting only.

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};

const HIDDEN = new Set(["level", "time", "pid", "hostname", "msg", "event"]);

function shortValue(value: unknown): string {
  if (typeof value === "string") return /\s/.test(value) ? JSON.stringify(value) : value;
  if (value !== null && typeof value === "object" && "message" in value && typeof value.message === "string")
    return JSON.stringify(value.message);
  return JSON.stringify(value) ?? String(value);
}

/** One terminal line for one JSON log line; lines that are not JSON pass through unchanged. */
export function formatPrettyLine(jsonLine: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine.endsWith("\n") ? jsonLine : `${jsonLine}\n`;
  }
  const time = typeof record["time"] === "string" ? record["time"].slice(11, 19) : "";
  const level = (LEVEL_NAMES[Number(record["level"])] ?? "LOG").padEnd(5);
  const parts = [time, level];
  if (typeof record["event"] === "string") parts.push(record["event"]);
  for (const [key, value] of Object.entries(record)) {
    if (!HIDDEN.has(key)) parts.push(`${key}=${shortValue(value)}`);
  }
  if (typeof record["msg"] === "string" && record["msg"] !== "") parts.push(`— ${record["msg"]}`);
  return `${parts.filter((p) => p !== "").join(" ")}\n`;
}

/** A write-only stream adapter that pretty-prints into `target`. */
export function prettyStream(target: NodeJS.WritableStream): { write(chunk: string): boolean } {
  return { write: (chunk) => target.write(formatPrettyLine(chunk)) };
}
