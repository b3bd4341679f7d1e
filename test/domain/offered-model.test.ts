// Which offered model a name means: /model, its buttons and the cost caps all ask this.
import { describe, expect, it } from "vitest";
import { offeredModel, pricesOfOffers, type OfferedModel } from "../../src/domain/index.js";

const MODELS: readonly OfferedModel[] = [
  { name: "default", resolvesTo: "claude-opus-5-5" },
  { name: "opus", resolvesTo: "claude-opus-5-5" },
  { name: "haiku", resolvesTo: "claude-haiku-5-5" },
];

describe("offeredModel", () => {
  it("finds a model by its name or by the model it stands for, in any case", () => {
    expect(offeredModel(MODELS, "Haiku")?.name).toBe("haiku");
    expect(offeredModel(MODELS, "CLAUDE-HAIKU-5-5")?.name).toBe("haiku");
    expect(offeredModel(MODELS, "gpt-5")).toBeUndefined();
  });

  it("names a full model id by its own name, not by 'default', which stands for it only today", () => {
    expect(offeredModel(MODELS, "claude-opus-5-5")?.name).toBe("opus");
    expect(offeredModel(MODELS, "default")?.name).toBe("default");
    expect(offeredModel([MODELS[0]!], "claude-opus-5-5")?.name).toBe("default");
  });
});

// The prices a cost cap takes from the running CLI's list of models, for a model Telecode's own
// table does not know: found by the name the CLI resolves to or by its own name.
describe("pricesOfOffers", () => {
  it("reads a model's prices from the CLI's description of it", () => {
    const listed: { offers?: { name: string; resolvesTo?: string; description?: string }[] } = {};
    const prices = pricesOfOffers(() => listed.offers);
    // Before any session has listed the models.
    expect(prices("claude-opus-6")).toBeUndefined();
    listed.offers = [
      { name: "default", resolvesTo: "claude-opus-6", description: "Use the default model · $3/$15 per Mtok" },
      { name: "opus", resolvesTo: "claude-opus-6", description: "Opus 6 · Best for everyday tasks · $3/$15 per Mtok" },
      { name: "gateway-model" },
    ];
    expect(prices("claude-opus-6")).toEqual({ input: 3, output: 15 });
    expect(prices("opus")).toEqual({ input: 3, output: 15 });
    expect(prices("gateway-model")).toBeUndefined();
    expect(prices("claude-unknown")).toBeUndefined();
  });
});
