// Terminal columns: wide CJK and emoji take two, marks none; a cut never splits a character.
import { describe, expect, it } from "vitest";
import { displayWidth, fitColumns } from "../../src/render/index.js";

describe("terminal width", () => {
  it("counts wide characters twice and marks not at all", () => {
    expect(displayWidth("npm test")).toBe(8);
    expect(displayWidth("日本語")).toBe(6);
    expect(displayWidth("한국어")).toBe(6);
    expect(displayWidth("✅ done 🎉")).toBe(10);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("☀ ©")).toBe(3);
  });

  it("fits text to a number of columns with an ellipsis, never cutting a character in half", () => {
    expect(fitColumns("short", 10)).toBe("short");
    expect(fitColumns("日本語のテキスト", 7)).toBe("日本語…");
    expect(fitColumns("ab🎉🎉🎉", 5)).toBe("ab🎉…");
    for (let columns = 1; columns < 20; columns++) {
      const fitted = fitColumns("echo 日本語 🎉 done", columns);
      expect(displayWidth(fitted)).toBeLessThanOrEqual(Math.max(columns, 1));
      // No half of a surrogate pair: the text survives a UTF-8 round trip.
      expect(Buffer.from(fitted, "utf8").toString("utf8")).toBe(fitted);
    }
  });
});
