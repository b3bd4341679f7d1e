// A model call's cost estimated from its tokens at list prices, for a per-run cost cap that
// must act while a turn goes on (the CLI reports a turn's cost only at its end). Pure; an
// estimate, never a bill: the turn's own cost stays the CLI's figure.
import type { StepUsage } from "./events.js";

/** US dollars per million tokens. */
type Prices = Readonly<{ input: number; output: number }>;

/** By model family, newest first; a model no row names is priced like the first (the dearest current one). */
const PRICES: readonly (readonly [RegExp, Prices])[] = [
  [/opus-4-[01]|opus-4-2|claude-3-opus|opus-4(?!-\d)/, { input: 15, output: 75 }],
  [/opus/, { input: 5, output: 25 }],
  [/sonnet/, { input: 3, output: 15 }],
  [/haiku-3-5|3-5-haiku/, { input: 0.8, output: 4 }],
  [/haiku-3|3-haiku/, { input: 0.25, output: 1.25 }],
  [/haiku/, { input: 1, output: 5 }],
];

const FALLBACK: Prices = { input: 5, output: 25 };

/** Cache reads cost a tenth of input; cache writes (5-minute) a quarter more. */
const CACHE_READ = 0.1;
const CACHE_WRITE = 1.25;

/** The estimated USD cost of one model call. */
export function estimateStepCostUsd(step: Omit<StepUsage, "type" | "parentToolUseId">): number {
  const prices = PRICES.find(([pattern]) => pattern.test(step.model))?.[1] ?? FALLBACK;
  const inputMillions =
    (step.inputTokens + step.cacheReadTokens * CACHE_READ + step.cacheWriteTokens * CACHE_WRITE) / 1_000_000;
  return inputMillions * prices.input + (step.outputTokens / 1_000_000) * prices.output;
}
