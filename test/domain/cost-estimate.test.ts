// A model call's estimated cost: list prices by model family, cache reads and writes priced as
// the API prices them, and an unknown model priced like the dearest current one (never free).
import { describe, expect, it } from "vitest";
import { estimateStepCostUsd } from "../../src/domain/index.js";

const step = (model: string, tokens: Partial<Record<"input" | "read" | "write" | "output", number>>) => ({
  model,
  inputTokens: tokens.input ?? 0,
  cacheReadTokens: tokens.read ?? 0,
  cacheWriteTokens: tokens.write ?? 0,
  outputTokens: tokens.output ?? 0,
});

describe("estimateStepCostUsd", () => {
  it("prices a million tokens at each family's list price", () => {
    expect(estimateStepCostUsd(step("claude-sonnet-4-5-20250929", { input: 1_000_000 }))).toBeCloseTo(3);
    expect(estimateStepCostUsd(step("claude-sonnet-4-5-20250929", { output: 1_000_000 }))).toBeCloseTo(15);
    expect(estimateStepCostUsd(step("claude-opus-4-1-20250805", { input: 1_000_000 }))).toBeCloseTo(15);
    expect(estimateStepCostUsd(step("claude-opus-4-5", { input: 1_000_000 }))).toBeCloseTo(5);
    expect(estimateStepCostUsd(step("claude-haiku-4-5", { input: 1_000_000 }))).toBeCloseTo(1);
  });

  it("prices cache reads at a tenth and cache writes at a quarter more than input", () => {
    expect(estimateStepCostUsd(step("claude-sonnet-4-5", { read: 1_000_000 }))).toBeCloseTo(0.3);
    expect(estimateStepCostUsd(step("claude-sonnet-4-5", { write: 1_000_000 }))).toBeCloseTo(3.75);
  });

  it("never prices an unknown model at zero", () => {
    expect(estimateStepCostUsd(step("", { input: 1_000_000 }))).toBeCloseTo(5);
    expect(estimateStepCostUsd(step("some-gateway-alias", { input: 1000, output: 1000 }))).toBeGreaterThan(0);
  });
});
