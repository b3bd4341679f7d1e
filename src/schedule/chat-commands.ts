// `/at` and `/every` as a person types them: "/at 30m check the deploy", "/at tomorrow 9:00 …",
// "/every weekday 9:00 …", "/every 2h …". Returns a schedule spec or a usage message, so a
// time that cannot be read never becomes a run. Pure; zone maths from croner.
import { cronProblem, nextCronSlot } from "./cron.js";
import { whenInWords } from "./describe.js";
import type { ScheduleTiming } from "./schedule-types.js";
import { addDays, instantAt, localDateTime, type LocalDate } from "./zone-clock.js";

/** What the chat side passes to `scheduler.create` (with chat, project, session and creator). */
export type ChatScheduleSpec = Readonly<{
  timing: ScheduleTiming;
  timeZone: string;
  recurring: boolean;
  prompt: string;
}>;

export type ChatCommandResult =
  Readonly<{ ok: true; spec: ChatScheduleSpec }> | Readonly<{ ok: false; message: string }>;

export type ChatCommandContext = Readonly<{ nowMs: number; timeZone: string }>;

const AT_EXAMPLES = "/at 30m check the deploy, /at 14:30 …, /at tomorrow 9:00 … or /at friday 17:00 …";
const EVERY_EXAMPLES = "/every 2h check the build, /every day 8:30 …, /every weekday 9:00 … or /every monday 10:00 …";
/** How far ahead /at may be, and the longest /every interval: a year, as the longest loop lifetime. */
const MAX_SPAN_MS = 365 * 86_400_000;

const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

const DAYS: Readonly<Record<string, number>> = {
  sun: 0,
  sunday: 0,
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
};

type Clock = { hour: number; minute: number };
type Taken<T> = { value: T; used: number } | null;

const failed = (message: string): ChatCommandResult => ({ ok: false, message });

/** "30m", "1h30m", "2 hours", "1d": a duration in ms and how many tokens it used. */
function readDuration(tokens: readonly string[]): Taken<number> {
  const first = (tokens[0] ?? "").toLowerCase();
  const compact = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?:in)?)?$/.exec(first);
  if (compact && first !== "" && (compact[1] ?? compact[2] ?? compact[3]) !== undefined) {
    const [d, h, m] = [compact[1], compact[2], compact[3]].map((n) => Number(n ?? 0));
    return { value: ((d ?? 0) * 24 * 60 + (h ?? 0) * 60 + (m ?? 0)) * 60_000, used: 1 };
  }
  const unit = UNIT_MS[(tokens[1] ?? "").toLowerCase()];
  if (/^\d+$/.test(first) && unit !== undefined) return { value: Number(first) * unit, used: 2 };
  return null;
}

/** "14:30", "9:00", "9am", "5:30pm", "9:00 pm", "9 p.m.": a time of day and how many tokens it used. */
function readClock(tokens: readonly string[]): Taken<Clock> {
  const match = /^(\d{1,2})(?::(\d{2}))?(?:([ap])\.?m\.?)?$/i.exec(tokens[0] ?? "");
  if (!match) return null;
  // "am" or "pm" as a word of its own (the text is split at spaces before the time is read).
  const halfWord = match[3] === undefined ? /^([ap])\.?m\.?$/i.exec(tokens[1] ?? "") : null;
  const half = (match[3] ?? halfWord?.[1])?.toLowerCase();
  if (match[2] === undefined && half === undefined) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === "p" ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? { value: { hour, minute }, used: halfWord ? 2 : 1 } : null;
}

/** "monday", "mon,thu", "weekday(s)", "weekend(s)", "day", "daily": days of the week (0 = Sunday). */
function readDays(token: string | undefined): number[] | null {
  const word = (token ?? "").toLowerCase();
  if (word === "day" || word === "daily" || word === "days") return [0, 1, 2, 3, 4, 5, 6];
  if (word === "weekday" || word === "weekdays") return [1, 2, 3, 4, 5];
  if (word === "weekend" || word === "weekends") return [0, 6];
  const days = word.split(",").map((d) => DAYS[d.replace(/s$/, "")] ?? DAYS[d]);
  if (days.length === 0 || days.some((d) => d === undefined)) return null;
  return [...new Set(days as number[])].sort((a, b) => a - b);
}

function readDate(token: string | undefined, today: LocalDate): LocalDate | null {
  const word = (token ?? "").toLowerCase();
  if (word === "today") return today;
  if (word === "tomorrow") return addDays(today, 1);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(word);
  return iso ? { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) } : null;
}

/** A daily cron at `clock` on `days` (sorted): "*" for all, a range for three or more in a row. */
function cronFor(clock: Clock, days: readonly number[]): string {
  const first = days[0] ?? 0;
  const inARow = days.length > 2 && days.every((d, i) => d === first + i);
  const dow = days.length === 7 ? "*" : inARow ? `${first}-${days.at(-1)}` : days.join(",");
  return `${clock.minute} ${clock.hour} * * ${dow}`;
}

function withPrompt(tokens: readonly string[], used: number, spec: Omit<ChatScheduleSpec, "prompt">, examples: string) {
  const prompt = tokens.slice(used).join(" ").trim();
  if (prompt === "")
    return failed(
      `There is nothing to run after the time, so nothing was scheduled. Add what to do, as in ${examples}.`,
    );
  return { ok: true, spec: { ...spec, prompt } } as const;
}

function unreadable(token: string | undefined, examples: string): ChatCommandResult {
  const what = token === undefined || token === "" ? "No time was given" : `"${token}" is not a time I can read`;
  return failed(`${what}, so nothing was scheduled. Try ${examples}.`);
}

const tokensOf = (text: string): string[] =>
  text
    .trim()
    .split(/\s+/)
    .filter((t) => t !== "");

/** `/at WHEN PROMPT`: once, after a duration or at a clock time (today or the next such day). */
export function parseAt(text: string, ctx: ChatCommandContext): ChatCommandResult {
  const all = tokensOf(text);
  const tokens = all[0]?.toLowerCase() === "in" ? all.slice(1) : all;
  const skipped = all.length - tokens.length;
  const once = (atMs: number, used: number): ChatCommandResult =>
    atMs - ctx.nowMs > MAX_SPAN_MS
      ? failed(
          `That is more than a year away, so nothing was scheduled. Pick a time within 365 days. Try ${AT_EXAMPLES}.`,
        )
      : withPrompt(
          all,
          skipped + used,
          { timing: { kind: "once", atMs }, timeZone: ctx.timeZone, recurring: false },
          AT_EXAMPLES,
        );

  const duration = readDuration(tokens);
  if (duration !== null) {
    if (duration.value < 60_000)
      return failed(
        `That is less than a minute away, so nothing was scheduled. Give at least 1m, as in ${AT_EXAMPLES}.`,
      );
    return once(ctx.nowMs + duration.value, duration.used);
  }
  const clock = readClock(tokens);
  if (clock !== null)
    return once(
      nextCronSlot(cronFor(clock.value, [0, 1, 2, 3, 4, 5, 6]), ctx.timeZone, ctx.nowMs) ?? ctx.nowMs,
      clock.used,
    );

  const today = localDateTime(ctx.nowMs, ctx.timeZone);
  const date = readDate(tokens[0], today);
  const days = date === null ? readDays(tokens[0]) : null;
  const dayClock = readClock(tokens.slice(1));
  if (date === null && days === null) return unreadable(tokens[0], AT_EXAMPLES);
  if (dayClock === null)
    return failed(`"${tokens[0]}" needs a time after it (such as 9:00), so nothing was scheduled. Try ${AT_EXAMPLES}.`);
  const used = 1 + dayClock.used;
  if (days !== null) {
    const atMs = nextCronSlot(cronFor(dayClock.value, days), ctx.timeZone, ctx.nowMs);
    return atMs === null ? unreadable(tokens[0], AT_EXAMPLES) : once(atMs, used);
  }
  const { hour, minute } = dayClock.value;
  const atMs = date === null ? null : instantAt(ctx.timeZone, date, hour, minute);
  if (atMs === null)
    return failed(`"${tokens[0]}" is not a date that exists, so nothing was scheduled. Try ${AT_EXAMPLES}.`);
  if (atMs <= ctx.nowMs)
    return failed(
      `${whenInWords(atMs, ctx.timeZone, ctx.nowMs)} has already passed, so nothing was scheduled. Pick a time in the future.`,
    );
  return once(atMs, used);
}

/** `/every WHEN PROMPT`: an interval from now, days of the week at a time, or a raw `cron M H DoM Mon DoW`. */
export function parseEvery(text: string, ctx: ChatCommandContext): ChatCommandResult {
  const tokens = tokensOf(text);
  const recurring = (timing: ScheduleTiming, used: number): ChatCommandResult =>
    withPrompt(tokens, used, { timing, timeZone: ctx.timeZone, recurring: true }, EVERY_EXAMPLES);

  const first = tokens[0]?.toLowerCase();
  if (first === "cron") {
    const cron = tokens.slice(1, 6).join(" ");
    const problem = cronProblem(cron);
    if (tokens.length < 6 || problem !== null)
      return failed(
        `"${cron}" ${problem ?? "needs five fields"}, so nothing was scheduled. Try /every cron 0 9 * * 1-5 ….`,
      );
    return recurring({ kind: "cron", cron }, 6);
  }
  const single = first === "hour" || first === "minute" ? { value: UNIT_MS[first] ?? 0, used: 1 } : null;
  const duration = single ?? readDuration(tokens);
  if (duration !== null) {
    if (duration.value < 60_000)
      return failed(`That is more often than once a minute, so nothing was scheduled. Try ${EVERY_EXAMPLES}.`);
    if (duration.value > MAX_SPAN_MS)
      return failed(
        `That is less often than once a year, so nothing was scheduled. Pick an interval of at most 365 days. Try ${EVERY_EXAMPLES}.`,
      );
    return recurring({ kind: "every", everyMs: duration.value, anchorMs: ctx.nowMs }, duration.used);
  }
  const days = readDays(tokens[0]);
  const clock = readClock(tokens.slice(1));
  if (days === null) return unreadable(tokens[0], EVERY_EXAMPLES);
  if (clock === null)
    return failed(
      `"${tokens[0]}" needs a time after it (such as 9:00), so nothing was scheduled. Try ${EVERY_EXAMPLES}.`,
    );
  return recurring({ kind: "cron", cron: cronFor(clock.value, days) }, 1 + clock.used);
}
