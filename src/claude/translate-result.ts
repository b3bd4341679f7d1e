// Turns a `result` line into the `usage` and `turn_finished` events: ok from is_error,
// failures typed (claude/failures.ts), interrupts as interrupts, context % from modelUsage. Pure
// functions of the result and the facts the translator gathered during the turn.
import type { TurnFinished, TurnOrigin, UsageReported } from "../domain/index.js";
import type { WireModelUsage, WireResultMessage, WireUsage } from "../wire/index.js";
import { resultFailure } from "./failures.js";

/** What the translator saw during the turn that the result line does not repeat. */
export type TurnFacts = {
  /** The last main-thread assistant text of the turn ("" if none). */
  lastText: string;
  /** Usage of the last main-thread assistant message (its context size), if any. */
  lastUsage: WireUsage | undefined;
  /** Model of that message, to pick its context window from modelUsage. */
  lastModel: string | undefined;
  /** The session's model from system/init, the fallback for the window. */
  sessionModel: string | undefined;
  /** This turn's own cost in USD (turn-cost.ts). */
  turnCostUsd: number;
  /** When the usage limit a rejected rate-limit event reported resets (epoch ms, and as people read it). */
  limitResets: { atMs: number; moment: string } | undefined;
  /** Who started the turn (turn-origins.ts) and the run it answers, if Telecode wrote it. */
  origin: TurnOrigin;
  runId: string | undefined;
};

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function contextTokensOf(usage: WireUsage): number {
  return (
    num(usage.input_tokens) +
    num(usage.cache_read_input_tokens) +
    num(usage.cache_creation_input_tokens) +
    num(usage.output_tokens)
  );
}

function contextWindowOf(modelUsage: WireResultMessage["modelUsage"], facts: TurnFacts): number | undefined {
  // Not checked by the decoder (only used here): guard every level.
  if (typeof modelUsage !== "object" || modelUsage === null) return undefined;
  const pick = (model: string | undefined): number | undefined => {
    if (model === undefined) return undefined;
    const entry: WireModelUsage | null | undefined = modelUsage[model];
    if (typeof entry !== "object" || entry === null) return undefined;
    const window = entry.contextWindow;
    return typeof window === "number" && window > 0 ? window : undefined;
  };
  const direct = pick(facts.lastModel) ?? pick(facts.sessionModel);
  if (direct !== undefined) return direct;
  for (const model of Object.keys(modelUsage)) {
    const window = pick(model);
    if (window !== undefined) return window;
  }
  return undefined;
}

/**
 * The usage event: this turn's tokens (input counts cache reads and writes), the session's
 * cumulative cost as the CLI reports it, and the context fill of the last main-thread call.
 */
export function buildUsage(result: WireResultMessage, facts: TurnFacts): UsageReported {
  const usage = typeof result.usage === "object" && result.usage !== null ? result.usage : undefined;
  const event: UsageReported = {
    type: "usage",
    inputTokens:
      usage === undefined
        ? 0
        : num(usage.input_tokens) + num(usage.cache_read_input_tokens) + num(usage.cache_creation_input_tokens),
    outputTokens: usage === undefined ? 0 : num(usage.output_tokens),
    costUsd: Math.round(num(result.total_cost_usd) * 1e6) / 1e6,
  };
  if (facts.lastUsage !== undefined) {
    const window = contextWindowOf(result.modelUsage, facts);
    if (window !== undefined)
      event.contextPercent = Math.round((contextTokensOf(facts.lastUsage) / window) * 1000) / 10;
  }
  return event;
}

function isInterrupted(result: WireResultMessage): boolean {
  return typeof result.terminal_reason === "string" && result.terminal_reason.startsWith("aborted");
}

/**
 * The turn_finished event. `answer` is result.result when non-empty, else the turn's last
 * text; `costUsd` is this turn's own cost.
 */
export function buildTurnFinished(result: WireResultMessage, facts: TurnFacts): TurnFinished {
  const interrupted = isInterrupted(result);
  const event: TurnFinished = {
    type: "turn_finished",
    ok: !result.is_error,
    answer: typeof result.result === "string" && result.result !== "" ? result.result : facts.lastText,
    interrupted,
    costUsd: facts.turnCostUsd,
    numTurns: num(result.num_turns),
    durationMs: num(result.duration_ms),
    origin: facts.origin,
  };
  if (facts.runId !== undefined) event.runId = facts.runId;
  if (result.is_error && !interrupted) event.error = resultFailure(result, facts.limitResets);
  return event;
}
