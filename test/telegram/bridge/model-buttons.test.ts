// Which offered model /model marks as the chat's: by name, by the model a name stands for (not
// "default" for a model set by its full name), and "default" when none is set.
import { describe, expect, it } from "vitest";
import { currentModelName } from "../../../src/telegram/bridge/buttons/model.js";

const offered = [
  { name: "default", resolvesTo: "claude-opus-5-5" },
  { name: "opus", resolvesTo: "claude-opus-5-5" },
  { name: "sonnet", resolvesTo: "claude-sonnet-5-5" },
];

describe("currentModelName", () => {
  it("finds the chat's model among the offered ones", () => {
    expect(currentModelName(offered, undefined)).toBe("default");
    expect(currentModelName(offered, "Sonnet")).toBe("sonnet");
    expect(currentModelName(offered, "claude-opus-5-5")).toBe("opus");
    expect(currentModelName(offered, "claude-haiku-3")).toBeUndefined();
  });
});
