import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "../../src/domain/index.js";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and swaps of neighbours as one each", () => {
    expect(editDistance("config", "config")).toBe(0);
    expect(editDistance("confg", "config")).toBe(1);
    expect(editDistance("configg", "config")).toBe(1);
    expect(editDistance("conlig", "config")).toBe(1);
    expect(editDistance("cofnig", "config")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });
});

describe("closestName", () => {
  it("names the candidate a typo most likely meant, whatever its case", () => {
    expect(closestName("--aprove", ["--approve", "--cwd", "--model"])).toBe("--approve");
    expect(closestName("Doctr", ["init", "doctor", "serve"])).toBe("doctor");
  });

  it("names a longer candidate that starts with a shortened name", () => {
    expect(closestName("--permission", ["--permission-mode", "--model"])).toBe("--permission-mode");
    expect(closestName("allowed_users", ["allowed_user_ids", "bot_token"])).toBe("allowed_user_ids");
  });

  it("names nothing when no candidate is close", () => {
    expect(closestName("--bogus", ["--config", "--help"])).toBeUndefined();
    expect(closestName("frobnicate", ["init", "doctor", "serve", "run"])).toBeUndefined();
    expect(closestName("x", [])).toBeUndefined();
  });
});
