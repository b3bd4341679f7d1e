// Small deterministic text helpers shared by translators and renderers: excerpts, token
// counts, durations, clock times. Pure: the time zone is passed in, no locale from the host.

/** The text cut to `maxChars` characters, with "…" when cut. */
export function excerpt(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - 1);
  // Never half of a surrogate pair (an emoji): a lone half is not valid text (Telegram refuses it).
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * A path cut to `maxChars` in its middle, so its file name stays ("src/…/widgets/Chart.test.tsx");
 * cut at its end, as `excerpt` does, when even the name does not fit.
 */
export function excerptPath(path: string, maxChars: number): string {
  if (path.length <= maxChars) return path;
  const parts = path.split("/");
  const head = `${parts[0]}/…/`;
  let tail = parts.at(-1)!;
  if (parts.length < 3 || head.length + tail.length > maxChars) return excerpt(path, maxChars);
  for (let i = parts.length - 2; i >= 1 && head.length + parts[i]!.length + 1 + tail.length <= maxChars; i--)
    tail = `${parts[i]}/${tail}`;
  return head + tail;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A tool result as a person should read it: the CLI's `<tool_use_error>` wrapper and a hook
 * denial's "PreToolUse:… hook error:" prefix removed, and a `<persisted-output>` note reduced
 * to its first line ("Output too large (1.9MB). Full output saved to: …") without the preview.
 */
export function cleanToolDetail(detail: string): string {
  const persisted = /^\s*<persisted-output>\s*([^\n]*)[\s\S]*?(?:<\/persisted-output>|$)/.exec(detail);
  if (persisted !== null) return persisted[1]!.trim();
  // A hook's denial reads as its reason: "PreToolUse:Bash hook error: " is the CLI's wrapping.
  return detail
    .replace(/<\/?tool_use_error>/g, "")
    .trim()
    .replace(/^PreToolUse:\S+ hook error:\s*/, "");
}

/**
 * How Telecode's scheduling hooks begin a denial that carries the call out (CronCreate,
 * ScheduleWakeup, CronList, CronDelete): the CLI reports it as a hook error, but for the person
 * the tool did its job.
 */
export const SCHEDULED_BY_TELECODE = "Scheduled by Telecode (this is not an error): ";
export const LISTED_BY_TELECODE = "Listed by Telecode (this is not an error): ";
export const STOPPED_BY_TELECODE = "Stopped by Telecode (this is not an error): ";

const DONE_BY_TELECODE = [SCHEDULED_BY_TELECODE, LISTED_BY_TELECODE, STOPPED_BY_TELECODE];

/** How Telecode's scheduling hooks begin a refusal because loops are off (/loops off, or the config). */
export const LOOPS_OFF_IN_CHAT = "Scheduling is turned off in this chat";
export const LOOPS_OFF_IN_CONFIG = "Scheduling is turned off in Telecode's configuration";
/** How they begin a refusal because Telecode failed to carry the call out (its database, say). */
export const SCHEDULING_FAILED = "Telecode failed to carry out this scheduling call";

/**
 * For a tool result one of Telecode's scheduling hooks wrote, what it did in a few words
 * ("listed by Telecode: this chat has 2 loops."); else undefined.
 */
export function doneByTelecode(detail: string): string | undefined {
  for (const marker of DONE_BY_TELECODE) {
    const at = detail.indexOf(marker);
    if (at === -1) continue;
    const rest = detail.slice(at + marker.length);
    const end = rest.search(/\.(\s|$)/);
    const first = end === -1 ? rest.trim() : rest.slice(0, end + 1);
    // "Listed by Telecode (this is not an error): " → "listed by Telecode"
    const did = marker.slice(0, marker.indexOf(" ("));
    return `${did.charAt(0).toLowerCase()}${did.slice(1)}: ${first}`;
  }
  return undefined;
}

/** Paths under `cwd` made relative to it ("/home/me/app/src/a.ts" → "src/a.ts"; `cwd` itself → "."). */
export function relativeToCwd(text: string, cwd: string | undefined): string {
  if (cwd === undefined || cwd === "" || cwd === "/") return text;
  const base = cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  if (text === base) return ".";
  return text.split(`${base}/`).join("");
}

/** 1234567 → "1,234,567" (fixed separators, independent of the host locale). */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(value)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Milliseconds as a short duration: "450 ms", "8 s", "1.5 s", "2 min 5 s", "2 h", "3 d 4 h". */
export function formatDurationMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) {
    const tenths = Math.round(ms / 100) / 10;
    return Number.isInteger(tenths) ? `${tenths} s` : `${tenths.toFixed(1)} s`;
  }
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes < 60) return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** `text` ending a sentence: a full stop added unless it ends with one (or `!`, `?`, `…`) already. */
export function sentence(text: string): string {
  return text === "" || /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** US dollars with enough precision for small turns: "$0.0016", "$0.50", "$1.23". */
export function formatUsd(value: number): string {
  if (!Number.isFinite(value)) return "$?";
  if (value >= 1) return `$${value.toFixed(2)}`;
  // Cents always, then the digits that say something: $0.50, $0.0364, $0.0008, $0.00.
  return `$${value.toFixed(4).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** Formats epoch milliseconds as wall-clock times in one IANA time zone. */
export type ClockFormatter = {
  /** "17:46" */
  time(epochMs: number): string;
  /**
   * A moment people can place, in the words schedules use too: "17:46 today", "02:00 tomorrow",
   * "17:46 on 17 March" (another day of `nowMs`'s year), "17:46 on 17 March 2030". Without
   * `nowMs` (a replay, where "today" means nothing), always with the date and the year.
   */
  moment(epochMs: number, nowMs?: number): string;
};

/** The calendar day after a YYYY-MM-DD day, in the same form. */
function nextDay(ymd: string): string {
  const next = new Date(Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)) - 1, Number(ymd.slice(8, 10)) + 1));
  return next.toISOString().slice(0, 10);
}

/**
 * A formatter for a time zone ("UTC", "Europe/Berlin"). Throws a RangeError for a zone the
 * runtime does not know; call it once at start-up, not per event.
 */
export function createClockFormatter(timeZone = "UTC"): ClockFormatter {
  const time = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const dayMonth = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "long" });
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  // The same moment comes again and again (a rate limit's reset, on each of its events): the
  // last one is kept, for "now" in the same minute (days change on a minute's boundary in every
  // zone since 1972).
  let last = { epochMs: Number.NaN, nowMinute: Number.NaN, text: "" };
  const moment = (epochMs: number, nowMs: number | undefined): string => {
    const ymd = day.format(epochMs);
    const clock = time.format(epochMs);
    const today = nowMs === undefined ? undefined : day.format(nowMs);
    if (today === ymd) return `${clock} today`;
    if (today !== undefined && nextDay(today) === ymd) return `${clock} tomorrow`;
    const year = ymd.slice(0, 4);
    const sameYear = today !== undefined && today.startsWith(year);
    return `${clock} on ${dayMonth.format(epochMs)}${sameYear ? "" : ` ${year}`}`;
  };
  return {
    time: (epochMs) => time.format(epochMs),
    moment(epochMs, nowMs) {
      const nowMinute = nowMs === undefined ? -1 : Math.floor(nowMs / 60_000);
      if (epochMs !== last.epochMs || nowMinute !== last.nowMinute)
        last = { epochMs, nowMinute, text: moment(epochMs, nowMs) };
      return last.text;
    },
  };
}

const formattersByZone = new Map<string, ClockFormatter>();

/** The zone's formatter, made once a process and shared by every caller that names the zone. */
function formatterFor(timeZone: string): ClockFormatter {
  let clock = formattersByZone.get(timeZone);
  if (clock === undefined) {
    clock = createClockFormatter(timeZone);
    formattersByZone.set(timeZone, clock);
  }
  return clock;
}

/**
 * A moment in a zone's words (see ClockFormatter.moment): for callers that name a zone per
 * call, as schedules do.
 */
export function momentInZone(epochMs: number, timeZone: string, nowMs?: number): string {
  return formatterFor(timeZone).moment(epochMs, nowMs);
}

/**
 * A formatter for the zone `timeZone()` names, asked at its first use: the first time-zone
 * formatter of a process loads ICU's zone data (~10 ms), which a live session needs only when
 * a note shows a clock time. Every session of the zone then shares one formatter. The zone
 * must be one the runtime knows (the host's, or checked).
 */
export function createLazyClockFormatter(timeZone: () => string): ClockFormatter {
  let made: ClockFormatter | undefined;
  const clock = (): ClockFormatter => (made ??= formatterFor(timeZone()));
  return {
    time: (epochMs) => clock().time(epochMs),
    moment: (epochMs, nowMs) => clock().moment(epochMs, nowMs),
  };
}

/** YYYY-MM-DD in this machine's time zone: what "today" means for the usage totals. */
export function localDay(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
