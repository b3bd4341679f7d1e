// [budget]'s caps as pure rules: which caps spending has reached (a run does not start, or is
// stopped, at one) or come near (the chat is warned), and the words that say so.
import { describe, expect, it } from "vitest";
import {
  capsNear,
  capsReached,
  nearWords,
  notStartedWords,
  standingsWords,
  stoppedWords,
  type BudgetCaps,
} from "../../src/domain/index.js";

const CAPS: BudgetCaps = { perRunUsd: 1, perChatUsd: 2, perDayUsd: 5, warnPercent: 80 };

describe("budget caps", () => {
  it("are reached at their amount, the run's first and all chats' last; caps not set never are", () => {
    expect(capsReached(CAPS, { run: 0.99, chat: 1.99, day: 4.99 })).toEqual([]);
    expect(capsReached(CAPS, { run: 1, chat: 2, day: 5 }).map((s) => s.cap)).toEqual([
      "per_run_usd",
      "per_chat_usd",
      "per_day_usd",
    ]);
    expect(capsReached(CAPS, { run: 0, chat: 0.5, day: 6 })).toEqual([{ cap: "per_day_usd", capUsd: 5, spentUsd: 6 }]);
    const none: BudgetCaps = { perRunUsd: null, perChatUsd: null, perDayUsd: null, warnPercent: 80 };
    expect(capsReached(none, { run: 100, chat: 100, day: 100 })).toEqual([]);
  });

  it("are near from the warning share until reached, and never with warn_percent = 0", () => {
    expect(capsNear(CAPS, { run: 0.79, chat: 1.59, day: 3.99 })).toEqual([]);
    expect(capsNear(CAPS, { run: 0.8, chat: 1.6, day: 5 }).map((s) => s.cap)).toEqual(["per_run_usd", "per_chat_usd"]);
    expect(capsNear({ ...CAPS, warnPercent: 0 }, { run: 0.99, chat: 1.99, day: 4.99 })).toEqual([]);
  });

  it("are said as a person reads them", () => {
    const chat = { cap: "per_chat_usd", capUsd: 2, spentUsd: 2.04 } as const;
    expect(notStartedWords(chat)).toBe(
      "Not run: this chat's runs have cost $2.04 today, against the $2.00 a chat a day that [budget] per_chat_usd allows.",
    );
    expect(stoppedWords({ cap: "per_run_usd", capUsd: 0.5, spentUsd: 0.5123 })).toBe(
      "Stopped this run: it had cost about $0.5123, against the $0.50 a run that [budget] per_run_usd allows.",
    );
    expect(nearWords({ cap: "per_day_usd", capUsd: 10, spentUsd: 8.5 })).toBe(
      "All chats' runs have cost about $8.50 today, 85% of the $10.00 a day that [budget] per_day_usd allows; there the running ones stop, and new messages wait for midnight.",
    );
    expect(
      standingsWords([
        { cap: "per_run_usd", capUsd: 1, spentUsd: 0 },
        { cap: "per_chat_usd", capUsd: 2, spentUsd: 0.4 },
      ]),
    ).toBe("$1.00 a run · this chat $0.40 today (cap $2.00)");
  });
});
