// Builds the human-readable notes the translator emits for Claude Code's status lines:
// API retries, rate limits, compaction, hooks, and other system messages. Text only: it
// decides nothing about state (the translator owns which notes to emit and when).
import { formatCount, formatDurationMs, MCP_SIGN_IN_NOTE, mcpServersNamed } from "../domain/index.js";
import type { ClockFormatter, NoteEmitted, UsageLimitReported } from "../domain/index.js";
import type {
  WireRateLimitEvent,
  WireSystemApiRetry,
  WireSystemCompactBoundary,
  WireSystemMessage,
} from "../wire/index.js";

/** "API error 529 (overloaded) — retrying in 1.2 s, attempt 2/10". */
export function apiRetryText(m: WireSystemApiRetry): string {
  // The CLI's category, when it knows one ("overloaded"); "unknown" tells a person nothing.
  const cause = typeof m.error === "string" && m.error !== "" && m.error !== "unknown" ? ` (${m.error})` : "";
  const what = m.error_status === null ? `API connection failed${cause}` : `API error ${m.error_status}${cause}`;
  return `${what} — retrying in ${formatDurationMs(m.retry_delay_ms)}, attempt ${m.attempt}/${m.max_retries}`;
}

/** "Context compacted (manual): 5,020 → 2,613 tokens". */
export function compactionText(m: WireSystemCompactBoundary): string {
  const meta = m.compact_metadata;
  const trigger = typeof meta.trigger === "string" ? ` (${meta.trigger})` : "";
  const pre = meta.pre_tokens;
  const post = meta.post_tokens;
  if (typeof pre === "number" && typeof post === "number") {
    return `Context compacted${trigger}: ${formatCount(pre)} → ${formatCount(post)} tokens`;
  }
  return `Context compacted${trigger}`;
}

const LIMIT_LABELS: Readonly<Record<string, string>> = {
  five_hour: "5h",
  seven_day: "7-day",
  seven_day_opus: "7-day Opus",
  seven_day_sonnet: "7-day Sonnet",
  seven_day_overage_included: "7-day",
  overage: "extra-usage",
};

function limitLabel(type: string | undefined): string {
  if (type === undefined) return "usage";
  return LIMIT_LABELS[type] ?? type;
}

/** When a window resets: "17:46 today", "02:00 on 18 March" (see ClockFormatter.moment). */
function resetTime(
  info: WireRateLimitEvent["rate_limit_info"],
  clock: ClockFormatter,
  nowMs: number | undefined,
): string | undefined {
  if (!isValidResetsAt(info.resetsAt)) return undefined;
  return clock.moment(info.resetsAt * 1000, nowMs);
}

/** Date formatting throws outside ±8.64e15 ms: such a resetsAt is treated as absent. */
function isValidResetsAt(resetsAt: unknown): resetsAt is number {
  return typeof resetsAt === "number" && Number.isFinite(resetsAt) && Math.abs(resetsAt) <= 8.64e12;
}

function isCoveredByOverage(info: WireRateLimitEvent["rate_limit_info"]): boolean {
  const overage = info["overageStatus"];
  return info["isUsingOverage"] === true || overage === "allowed" || overage === "allowed_warning";
}

/** The key that identifies one rate-limit window (a warning is shown once per window). */
export function rateLimitWindowKey(info: WireRateLimitEvent["rate_limit_info"]): string {
  return `${info.rateLimitType ?? "usage"}:${typeof info.resetsAt === "number" ? info.resetsAt : "?"}`;
}

/**
 * The note for a rate-limit event, or undefined when nothing is to be shown (`allowed`).
 * `rejected` latches an expected wait until the reset (`untilMs`) unless extra usage covers it.
 * `nowMs` is when the event is read live (omitted in a replay: reset times then carry a date).
 */
export function rateLimitNote(m: WireRateLimitEvent, clock: ClockFormatter, nowMs?: number): NoteEmitted | undefined {
  const info = m.rate_limit_info;
  // The CLI reports `allowed` around every model call: it shows nothing, so costs nothing.
  if (info.status !== "allowed_warning" && info.status !== "rejected") return undefined;
  const label = limitLabel(info.rateLimitType);
  const key = `rate_limit:${info.rateLimitType ?? "usage"}`;
  const resets = resetTime(info, clock, nowMs);
  switch (info.status) {
    case "allowed_warning": {
      const used =
        typeof info.utilization === "number" ? `${Math.round(info.utilization * 100)}% used` : "almost used up";
      return {
        type: "note",
        kind: "rate_limit",
        key,
        text: `${label} limit ${used}${resets === undefined ? "" : `, resets ${resets}`}`,
      };
    }
    case "rejected": {
      if (isCoveredByOverage(info)) {
        return { type: "note", kind: "rate_limit", key, text: `${label} limit reached; continuing on extra usage` };
      }
      if (!isValidResetsAt(info.resetsAt) || resets === undefined) {
        return { type: "note", kind: "rate_limit", key, text: `Rate limited (${label} limit reached)` };
      }
      return {
        type: "note",
        kind: "rate_limit",
        key,
        text: `Rate limited until ${resets} (${label} limit reached)`,
        untilMs: info.resetsAt * 1000,
      };
    }
    default:
      return undefined;
  }
}

const LIMIT_STATES: Readonly<Record<string, UsageLimitReported["state"]>> = {
  allowed: "ok",
  allowed_warning: "warning",
  rejected: "reached",
};

/** Where the limit a rate-limit event names stands, or undefined for a status Telecode does not know. */
export function usageLimitEvent(m: WireRateLimitEvent): UsageLimitReported | undefined {
  const info = m.rate_limit_info;
  const state = LIMIT_STATES[info.status];
  if (state === undefined) return undefined;
  const used = info.utilization;
  return {
    type: "usage_limit",
    limit: limitLabel(info.rateLimitType),
    state,
    ...(typeof used === "number" && Number.isFinite(used) ? { usedPercent: Math.round(used * 100) } : {}),
    ...(isValidResetsAt(info.resetsAt) ? { resetsAtMs: info.resetsAt * 1000 } : {}),
    extraUsage: state === "reached" && isCoveredByOverage(info),
  };
}

function field(m: WireSystemMessage, name: string): string | undefined {
  const value = (m as Record<string, unknown>)[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Notes for the system subtypes that carry something a person should read; else undefined. */
export function otherSystemNote(m: WireSystemMessage): NoteEmitted | undefined {
  switch (m.subtype) {
    case "hook_response": {
      const outcome = field(m, "outcome");
      if (outcome === undefined || outcome === "success") return undefined;
      const name = field(m, "hook_name") ?? "hook";
      const exit = typeof m["exit_code"] === "number" ? ` (exit ${m["exit_code"]})` : "";
      const stderr = field(m, "stderr");
      return {
        type: "note",
        kind: "warning",
        text: `Hook ${name} ${outcome}${exit}${stderr === undefined ? "" : `: ${stderr.slice(0, 300)}`}`,
      };
    }
    case "informational": {
      const content = field(m, "content");
      if (content === undefined) return undefined;
      return { type: "note", kind: field(m, "level") === "warning" ? "warning" : "info", text: content };
    }
    case "notification": {
      const text = field(m, "text");
      if (text === undefined) return undefined;
      const key = field(m, "key");
      return key === undefined
        ? { type: "note", kind: "info", text }
        : { type: "note", kind: "info", text, key: `notification:${key}` };
    }
    case "local_command_output": {
      const content = field(m, "content");
      return content === undefined ? undefined : { type: "note", kind: "info", text: content };
    }
    case "model_refusal_fallback":
    case "model_refusal_no_fallback":
    case "mirror_error": {
      const content = field(m, "content") ?? field(m, "error") ?? m.subtype;
      return { type: "note", kind: "warning", text: content };
    }
    case "elicitation_complete": {
      // An MCP server says what it sent the person's link for (a sign-in, a payment) is done.
      const server = field(m, "mcp_server_name") ?? "The MCP server";
      return { type: "note", kind: "info", text: `${server}: done with the link you opened.` };
    }
    case "session_writes_lost": {
      const code = field(m, "error_code") ?? "write error";
      return {
        type: "note",
        kind: "warning",
        text: `Claude Code could not save part of the session (${code}); free disk space to keep resuming it.`,
      };
    }
    default:
      return undefined;
  }
}

/** The note naming the MCP servers that wait for a sign-in (`needs-auth`), and where to give it. */
export function signInMcpNote(names: readonly string[]): NoteEmitted {
  const { who, its } = mcpServersNamed(names);
  const needs = names.length === 1 ? "needs" : "need";
  const text = `MCP ${who} ${needs} a sign-in; Claude works without ${its} tools. On the computer: run \`claude\` in the project, then /mcp.`;
  return { type: "note", kind: "warning", text, key: MCP_SIGN_IN_NOTE, servers: names };
}

/**
 * The note naming the MCP servers that did not connect; with `reasons` (by server, as Claude
 * Code's `mcp_status` gives them), each server's own, and where to find those it lacks.
 */
export function failedMcpNote(names: readonly string[], reasons?: ReadonlyMap<string, string>): NoteEmitted {
  const { who, its } = mcpServersNamed(
    names.map((name) => {
      const why = reasons?.get(name);
      return why === undefined ? name : `${name} (${why})`;
    }),
  );
  const where = names.every((name) => reasons?.has(name)) ? "" : " `claude mcp list` on the computer says why.";
  const text = `MCP ${who} did not connect; Claude works without ${its} tools.${where}`;
  return { type: "note", kind: "warning", text, key: "mcp_unavailable:failed" };
}

/** Why each failed MCP server did not connect, from an `mcp_status` reply (`mcpServers[].error`). */
export function mcpFailureReasons(reply: Readonly<Record<string, unknown>>): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const server of Array.isArray(reply["mcpServers"]) ? (reply["mcpServers"] as unknown[]) : []) {
    const { name, status, error } = (server ?? {}) as { name?: unknown; status?: unknown; error?: unknown };
    if (typeof name === "string" && status === "failed" && typeof error === "string" && error.trim() !== "")
      reasons.set(name, error.trim());
  }
  return reasons;
}

/** The names of the servers `servers` (an init line's `mcp_servers`) lists with `status`. */
export function serverNames(servers: unknown, status: string): string[] {
  if (!Array.isArray(servers)) return [];
  const names: string[] = [];
  for (const server of servers as unknown[]) {
    const listed = (server ?? {}) as { name?: unknown; status?: unknown };
    if (typeof listed.name === "string" && listed.status === status) names.push(listed.name);
  }
  return names;
}
