// The prices a cost cap takes from the running CLI's list of models, for a model Telecode's own
// table does not know: found by the name the CLI resolves to or by its own name.
import { describe, expect, it } from "vitest";
import { pricesOfOffers } from "../../../src/cli/compose/run-cost-cap.js";

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
