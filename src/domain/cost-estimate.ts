// A model call's cost estimated from its tokens at list prices, for a per-run cost cap that
// must act while a turn goes on (the CLI reports a turn's cost only at its end). Pure; an
// estimate, never a bill: the turn's own cost stays the CLI's figure. The prices are the ones
// Claude Code 2.1.332 itself uses for its cost figures (its model catalog's pricing tiers); a
// model newer than the table is priced as the running CLI states it in its list of models.
import type { StepUsage } from "./events.js";

/** US dollars per million tokens; cache writes are the 5-minute kind (the CLI's default). */
type Prices = Readonly<{ input: number; output: number; cacheWrite: number; cacheRead: number }>;

const tier = (input: number, output: number, cacheRead = input / 10): Prices => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheRead,
});

const OPUS_4_0 = tier(15, 75);
const OPUS_4_5 = tier(5, 25);
const OPUS_5_5 = tier(4, 20, 0.2);
const SONNET_4 = tier(3, 15);
const SONNET_5 = tier(2, 10);
const SONNET_5_5 = tier(2, 10, 0.1);
const HAIKU_3_5 = tier(0.8, 4);
const HAIKU_4_5 = tier(1, 5);
const HAIKU_5_5 = tier(0.1, 0.5);
const FABLE_5 = tier(10, 50);
const FABLE_5_1 = tier(10, 50, 0.25);
const FABLE_5_2 = tier(8, 40, 0.2);

/** Each model the CLI knows, by id; a dated or provider-prefixed id matches the longest id it contains. */
const MODELS: ReadonlyMap<string, Prices> = new Map([
  ["claude-3-5-haiku", HAIKU_3_5],
  ["claude-haiku-4-5", HAIKU_4_5],
  ["claude-haiku-5-5", HAIKU_5_5],
  ["claude-3-5-sonnet", SONNET_4],
  ["claude-3-7-sonnet", SONNET_4],
  ["claude-sonnet-4-0", SONNET_4],
  ["claude-sonnet-4", SONNET_4],
  ["claude-sonnet-4-5", SONNET_4],
  ["claude-sonnet-4-6", SONNET_4],
  ["claude-sonnet-5", SONNET_5],
  ["claude-sonnet-5-5", SONNET_5_5],
  ["claude-opus-4-0", OPUS_4_0],
  ["claude-opus-4", OPUS_4_0],
  ["claude-opus-4-1", OPUS_4_0],
  ["claude-opus-4-5", OPUS_4_5],
  ["claude-opus-4-6", OPUS_4_5],
  ["claude-opus-4-7", OPUS_4_5],
  ["claude-opus-4-8", OPUS_4_5],
  ["claude-opus-5", OPUS_4_5],
  ["claude-opus-5-5", OPUS_5_5],
  ["claude-fable-5", FABLE_5],
  ["claude-fable-5-1", FABLE_5_1],
  ["claude-fable-5-2", FABLE_5_2],
  ["claude-mythos-5", FABLE_5],
  ["claude-mythos-5-1", FABLE_5_1],
  ["claude-mythos-5-2", FABLE_5_2],
]);

/** A model of a known family but an unknown version is priced like the family's newest. */
const FAMILIES: readonly (readonly [RegExp, Prices])[] = [
  [/opus/, OPUS_5_5],
  [/sonnet/, SONNET_5_5],
  [/haiku/, HAIKU_5_5],
  [/fable/, FABLE_5_2],
  [/mythos/, FABLE_5_2],
];

/** Anything else (a gateway's alias) is priced like the dearest current model: a cap errs on the safe side. */
const UNKNOWN = FABLE_5;

/** What may follow a model id and still be that model: nothing, a date, a provider suffix; not "-5" (another version). */
const CONTINUES_VERSION = /^(?:-\d(?!\d{7})|\d)/;

/** A model's list prices in US dollars per million tokens, as Claude Code states them for the models it offers. */
export type ListPrices = Readonly<{ input: number; output: number }>;

/** Where the prices of a model Telecode's table does not know may be found (the CLI's own list). */
export type OfferedPrices = (model: string) => ListPrices | undefined;

/** The prices in a model's description as Claude Code writes it ("Opus 5.5 · … · $4/$20 per Mtok"). */
export function pricesInDescription(description: string): ListPrices | undefined {
  const match = /\$(\d+(?:\.\d+)?)\/\$(\d+(?:\.\d+)?) per Mtok/.exec(description);
  return match === null ? undefined : { input: Number(match[1]), output: Number(match[2]) };
}

/**
 * The prices of `model` ("claude-opus-5-5", "claude-sonnet-4-5-20250929", "us.anthropic.claude-opus-4-1-v1:0"):
 * the table's, else what the CLI states for it (`offered`), else its family's, else the dearest.
 */
function pricesOf(model: string, offered: OfferedPrices | undefined): Prices {
  let best = "";
  for (const id of MODELS.keys()) {
    const at = model.indexOf(id);
    if (at >= 0 && id.length > best.length && !CONTINUES_VERSION.test(model.slice(at + id.length))) best = id;
  }
  const known = MODELS.get(best);
  if (known !== undefined) return known;
  const stated = offered?.(model);
  if (stated !== undefined) return tier(stated.input, stated.output);
  return FAMILIES.find(([family]) => family.test(model))?.[1] ?? UNKNOWN;
}

/** The estimated USD cost of one model call. */
export function estimateStepCostUsd(
  step: Omit<StepUsage, "type" | "parentToolUseId">,
  offered?: OfferedPrices,
): number {
  const prices = pricesOf(step.model, offered);
  return (
    (step.inputTokens * prices.input +
      step.cacheReadTokens * prices.cacheRead +
      step.cacheWriteTokens * prices.cacheWrite +
      step.outputTokens * prices.output) /
    1_000_000
  );
}
