// Reading what people type: commands addressed to this bot or another, one-message directive
// lines, and near-misses that deserve a hint.
import { describe, expect, it } from "vitest";
import {
  dotCommandOf,
  modeFromWord,
  nearestCommand,
  readDirectives,
  readSlashWord,
} from "../../../src/telegram/bridge/command-text.js";
import { COMMANDS } from "../../../src/telegram/index.js";

const BOT = "telecode_test_bot";
const NAMES = COMMANDS.map((c) => c.command);

describe("readSlashWord", () => {
  it("reads the command, its arguments (other lines too) and whom it addresses", () => {
    expect(readSlashWord("/Model  opus", BOT)).toEqual({ name: "model", args: "opus", forOtherBot: false });
    expect(readSlashWord("/continue@telecode_test_bot fix it\nthen test", BOT)).toEqual({
      name: "continue",
      args: "fix it\nthen test",
      forOtherBot: false,
    });
    expect(readSlashWord("/new@other_bot", BOT)).toMatchObject({ name: "new", forOtherBot: true });
    expect(readSlashWord("not a command /new", BOT)).toBeUndefined();
    expect(readSlashWord("/", BOT)).toBeUndefined();
  });
});

describe("readDirectives", () => {
  const projects = ["app", "web-site"];
  it("takes a leading run of project and mode words, the rest is the prompt", () => {
    expect(readDirectives("/web-site /plan fix the login\nand test it", projects, BOT)).toEqual({
      project: "web-site",
      mode: "plan",
      prompt: "fix the login\nand test it",
    });
    expect(readDirectives("/APP do it", projects, BOT)).toEqual({ project: "app", prompt: "do it" });
    expect(readDirectives("/acceptedits /plan_auto x", projects, BOT)).toEqual({
      mode: "acceptEdits",
      prompt: "/plan_auto x",
    });
    expect(readDirectives("/plan", projects, BOT)).toEqual({ mode: "plan", prompt: "" });
  });

  it("is not a directive when the first word is neither a project nor a mode", () => {
    expect(readDirectives("/status", projects, BOT)).toBeUndefined();
    expect(readDirectives("/bypassPermissions do anything", projects, BOT)).toBeUndefined();
    expect(readDirectives("plain text /app", projects, BOT)).toBeUndefined();
  });
});

describe("near-misses", () => {
  it("maps typos and dotted commands to the command meant, and leaves ordinary words alone", () => {
    expect(nearestCommand("neww", NAMES)).toBe("new");
    expect(nearestCommand("stauts", NAMES)).toBe("status");
    expect(nearestCommand("planmod", NAMES)).toBe("planmode");
    expect(nearestCommand("refactor", NAMES)).toBeUndefined();
    expect(dotCommandOf(".new", NAMES)).toBe("new");
    expect(dotCommandOf(".cancel now", NAMES)).toBe("cancel");
    expect(dotCommandOf(".gitignore should list dist", NAMES)).toBeUndefined();
    expect(dotCommandOf("new", NAMES)).toBeUndefined();
  });

  it("reads modes as people type them", () => {
    expect(modeFromWord("acceptEdits")).toBe("acceptEdits");
    expect(modeFromWord("PLAN-AUTO")).toBe("plan-auto");
    expect(modeFromWord("bypassPermissions")).toBeUndefined();
  });
});
