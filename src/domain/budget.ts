// The spending caps of [budget]: what a run, a chat's day and all chats' day may cost, and the
// share of a cap at which the chat is warned. Which caps spending has reached or come near, and
// the words that say so. Pure: the caller adds up what was spent (recorded and estimated).
import { formatUsd } from "./text-format.js";

/** A cap's key in [budget], as the chat names it. */
export type BudgetCap = "per_run_usd" | "per_chat_usd" | "per_day_usd";

export type BudgetCaps = Readonly<{
  /** What one run may cost; null: no cap. */
  perRunUsd: number | null;
  /** What one chat's runs may cost in a day; null: no cap. */
  perChatUsd: number | null;
  /** What all chats' runs may cost in a day; null: no cap. */
  perDayUsd: number | null;
  /** The chat is told once spending reaches this share of a cap (1–99); 0: never. */
  warnPercent: number;
}>;

/** What has been spent against each cap: the run so far, its chat today, all chats today. */
export type Spent = Readonly<{ run: number; chat: number; day: number }>;

/** One cap, and what has been spent against it. */
export type CapStanding = Readonly<{ cap: BudgetCap; capUsd: number; spentUsd: number }>;

/** Whether any cap is set (none: spending is only counted). */
export function anyCap(caps: BudgetCaps): boolean {
  return caps.perRunUsd !== null || caps.perChatUsd !== null || caps.perDayUsd !== null;
}

/** Every cap that is set, with what was spent against it: the run's first, all chats' last. */
export function capStandings(caps: BudgetCaps, spent: Spent): CapStanding[] {
  const all: [BudgetCap, number | null, number][] = [
    ["per_run_usd", caps.perRunUsd, spent.run],
    ["per_chat_usd", caps.perChatUsd, spent.chat],
    ["per_day_usd", caps.perDayUsd, spent.day],
  ];
  return all.flatMap(([cap, capUsd, spentUsd]) => (capUsd === null ? [] : [{ cap, capUsd, spentUsd }]));
}

/** The caps spending has reached: a run is not started, or is stopped, at the first of them. */
export function capsReached(caps: BudgetCaps, spent: Spent): CapStanding[] {
  return capStandings(caps, spent).filter((s) => s.spentUsd >= s.capUsd);
}

/** The caps spending has come near (the warning share) without reaching them. */
export function capsNear(caps: BudgetCaps, spent: Spent): CapStanding[] {
  if (caps.warnPercent <= 0) return [];
  return capStandings(caps, spent).filter(
    (s) => s.spentUsd < s.capUsd && s.spentUsd >= (s.capUsd * caps.warnPercent) / 100,
  );
}

/** Who spent against a cap, how the verb goes with it, and when. */
const SPENDERS: Record<BudgetCap, { who: string; have: string; when: string }> = {
  per_run_usd: { who: "this run", have: "has", when: "" },
  per_chat_usd: { who: "this chat's runs", have: "have", when: " today" },
  per_day_usd: { who: "all chats' runs", have: "have", when: " today" },
};

/** "a run", "a chat a day", "a day". */
const ALLOWS: Record<BudgetCap, string> = {
  per_run_usd: "a run",
  per_chat_usd: "a chat a day",
  per_day_usd: "a day",
};

/** "the $2.00 a chat a day that [budget] per_chat_usd allows". */
const allowance = (s: CapStanding): string =>
  `the ${formatUsd(s.capUsd)} ${ALLOWS[s.cap]} that [budget] ${s.cap} allows`;

/** Why a run did not start, in a sentence (plain text). */
export function notStartedWords(s: CapStanding): string {
  const { who, have, when } = SPENDERS[s.cap];
  return `Not run: ${who} ${have} cost ${formatUsd(s.spentUsd)}${when}, against ${allowance(s)}.`;
}

/** Why a run was stopped while it worked, in a sentence (plain text). */
export function stoppedWords(s: CapStanding): string {
  const { who, when } = SPENDERS[s.cap];
  const spender = s.cap === "per_run_usd" ? "it" : who;
  return `Stopped this run: ${spender} had cost about ${formatUsd(s.spentUsd)}${when}, against ${allowance(s)}.`;
}

/** That spending came near a cap, and what happens at it (plain text). */
export function nearWords(s: CapStanding): string {
  const { who, have, when } = SPENDERS[s.cap];
  const percent = Math.floor((s.spentUsd / s.capUsd) * 100);
  const then =
    s.cap === "per_run_usd" ? "it is stopped there" : "there the running ones stop, and new messages wait for midnight";
  return `${capitalised(who)} ${have} cost about ${formatUsd(s.spentUsd)}${when}, ${percent}% of ${allowance(s)}; ${then}.`;
}

/** Where spending stands against the caps, for /usage: "$1.00 a run · this chat $0.40 today (cap $2.00)". */
export function standingsWords(standings: readonly CapStanding[]): string {
  const words: Record<BudgetCap, (s: CapStanding) => string> = {
    per_run_usd: (s) => `${formatUsd(s.capUsd)} a run`,
    per_chat_usd: (s) => `this chat ${formatUsd(s.spentUsd)} today (cap ${formatUsd(s.capUsd)})`,
    per_day_usd: (s) => `all chats ${formatUsd(s.spentUsd)} today (cap ${formatUsd(s.capUsd)})`,
  };
  return standings.map((s) => words[s.cap](s)).join(" · ");
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
