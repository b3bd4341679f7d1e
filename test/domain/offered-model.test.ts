// Which offered model a name means: /model, its buttons and the cost caps all ask this.
import { describe, expect, it } from "vitest";
import { offeredModel, type OfferedModel } from "../../src/domain/index.js";

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
