// A model call's estimated cost: the list prices Claude Code itself uses, by model (dated and
// provider ids included), cache reads and writes priced per model, a new version of a known
// family priced like its newest, and an unknown model like the dearest (never free).
import { describe, expect, it } from "vitest";
import { estimateStepCostUsd, pricesInDescription } from "../../src/domain/index.js";

const step = (model: string, tokens: Partial<Record<"input" | "read" | "write" | "output", number>>) => ({
  model,
  inputTokens: tokens.input ?? 0,
  cacheReadTokens: tokens.read ?? 0,
  cacheWriteTokens: tokens.write ?? 0,
  outputTokens: tokens.output ?? 0,
});

const M = 1_000_000;
const inputOf = (model: string): number => estimateStepCostUsd(step(model, { input: M }));

describe("estimateStepCostUsd", () => {
  it("prices a million tokens at each model's list price", () => {
    expect(inputOf("claude-sonnet-4-5-20250929")).toBeCloseTo(3);
    expect(estimateStepCostUsd(step("claude-sonnet-4-5-20250929", { output: M }))).toBeCloseTo(15);
    expect(inputOf("claude-opus-4-1-20250805")).toBeCloseTo(15);
    expect(inputOf("claude-opus-4-20250514")).toBeCloseTo(15);
    expect(inputOf("claude-opus-4-5")).toBeCloseTo(5);
    expect(inputOf("claude-haiku-4-5")).toBeCloseTo(1);
    // The models Claude Code 2.1.332 offers (its /model list reads "$4/$20 per Mtok" and so on).
    expect(inputOf("claude-opus-5-5")).toBeCloseTo(4);
    expect(estimateStepCostUsd(step("claude-opus-5-5", { output: M }))).toBeCloseTo(20);
    expect(inputOf("claude-sonnet-5-5")).toBeCloseTo(2);
    expect(inputOf("claude-fable-5-2")).toBeCloseTo(8);
    expect(inputOf("claude-fable-5")).toBeCloseTo(10);
    expect(inputOf("claude-haiku-5-5")).toBeCloseTo(0.1);
  });

  it("tells a version from the next one, and reads provider ids", () => {
    expect(inputOf("claude-opus-5")).toBeCloseTo(5);
    expect(inputOf("claude-opus-5-20260301")).toBeCloseTo(5);
    expect(inputOf("us.anthropic.claude-opus-4-1-20250805-v1:0")).toBeCloseTo(15);
    expect(inputOf("claude-opus-4-6[1m]")).toBeCloseTo(5);
  });

  it("prices cache reads and writes as each model's tier does", () => {
    expect(estimateStepCostUsd(step("claude-sonnet-4-5", { read: M }))).toBeCloseTo(0.3);
    expect(estimateStepCostUsd(step("claude-sonnet-4-5", { write: M }))).toBeCloseTo(3.75);
    expect(estimateStepCostUsd(step("claude-opus-5-5", { read: M }))).toBeCloseTo(0.2);
    expect(estimateStepCostUsd(step("claude-opus-5-5", { write: M }))).toBeCloseTo(5);
  });

  it("prices a new version like its family's newest, and never an unknown model at zero", () => {
    expect(inputOf("claude-opus-6")).toBeCloseTo(4);
    expect(inputOf("claude-sonnet-6-1")).toBeCloseTo(2);
    expect(inputOf("")).toBeCloseTo(10);
    expect(estimateStepCostUsd(step("some-gateway-alias", { input: 1000, output: 1000 }))).toBeGreaterThan(0);
  });

  it("prices a model the table does not know as the running CLI states it, before its family's", () => {
    const stated = pricesInDescription("Opus 6 · Best for everyday, complex tasks · $3.5/$17.5 per Mtok");
    expect(stated).toEqual({ input: 3.5, output: 17.5 });
    const offered = (model: string) => (model === "claude-opus-6" ? stated : undefined);
    expect(estimateStepCostUsd(step("claude-opus-6", { input: M }), offered)).toBeCloseTo(3.5);
    expect(estimateStepCostUsd(step("claude-opus-6", { output: M }), offered)).toBeCloseTo(17.5);
    expect(estimateStepCostUsd(step("claude-opus-6", { write: M }), offered)).toBeCloseTo(4.375);
    // The table knows the models it lists, cache prices included; the CLI's list is for the others.
    expect(estimateStepCostUsd(step("claude-opus-5-5", { read: M }), () => ({ input: 9, output: 9 }))).toBeCloseTo(0.2);
    expect(pricesInDescription("Use the default model")).toBeUndefined();
  });
});
