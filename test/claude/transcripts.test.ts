// What the CLI's transcripts tell: which session "continue the latest one" picks, by the times
// their lines carry, not by file times; and whether a session can be resumed at all (the real
// CLI's own transcripts are exercised end to end in test/e2e/telegram-sessions.test.ts).
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasConversation, latestSessionId } from "../../src/claude/transcripts.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("transcripts");
const CWD = "/home/ann/code/my app";
const SLUG = "-home-ann-code-my-app";

/** A transcript as the CLI writes it: timed conversation lines, then an untimed cost line (written at exit). */
function transcript(sessionId: string, lastAt: string, extra = ""): string {
  const line = (o: object): string => `${JSON.stringify({ sessionId, ...o })}\n`;
  return (
    line({ type: "user", timestamp: "2030-01-01T09:00:00.000Z", message: { role: "user", content: "hi" } }) +
    extra +
    line({ type: "assistant", timestamp: lastAt, message: { role: "assistant", content: [] } }) +
    line({ type: "cost-state", totalCostUSD: 0.0008 })
  );
}

function write(dir: string, sessionId: string, text: string, mtime: Date): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, text);
  utimesSync(file, mtime, mtime);
}

describe("latestSessionId", () => {
  it("picks the session whose own lines are newest, though another's file was touched later", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    // The chat's session: used at 10:00, its file touched at 12:00 when its process closed.
    write(
      dir,
      "chat-session",
      transcript("chat-session", "2030-01-01T10:00:00.000Z"),
      new Date("2030-01-01T12:00:00Z"),
    );
    // The terminal's: used at 11:00.
    write(
      dir,
      "terminal-session",
      transcript("terminal-session", "2030-01-01T11:00:00.000Z"),
      new Date("2030-01-01T11:00:01Z"),
    );
    write(
      join(home, ".claude", "projects", "-other-project"),
      "elsewhere",
      transcript("elsewhere", "2030-01-02T00:00:00.000Z"),
      new Date("2030-01-02T00:00:00Z"),
    );
    expect(await latestSessionId(CWD, { HOME: home })).toBe("terminal-session");
  });

  it("reads back past a last line longer than one read, and honours CLAUDE_CONFIG_DIR", async () => {
    const config = tempDir();
    const dir = join(config, "projects", SLUG);
    const big = `${JSON.stringify({ type: "attachment", content: "x".repeat(300_000) })}\n`;
    write(dir, "long", transcript("long", "2030-01-01T10:00:00.000Z", "") + big, new Date("2030-01-01T10:00:00Z"));
    write(dir, "short", transcript("short", "2030-01-01T09:30:00.000Z"), new Date("2030-01-01T09:30:00Z"));
    expect(await latestSessionId(CWD, { HOME: tempDir(), CLAUDE_CONFIG_DIR: config })).toBe("long");
  });

  it("finds nothing in a project with no transcripts, or none with a timed line", async () => {
    const home = tempDir();
    expect(await latestSessionId(CWD, { HOME: home })).toBeUndefined();
    write(join(home, ".claude", "projects", SLUG), "empty", `${JSON.stringify({ type: "cost-state" })}\n`, new Date());
    expect(await latestSessionId(CWD, { HOME: home })).toBeUndefined();
  });
});

describe("hasConversation", () => {
  it("is true once the transcript holds a message, whichever directory names the project", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    write(dir, "kept", transcript("kept", "2030-01-01T10:00:00.000Z"), new Date());
    expect(await hasConversation(CWD, "kept", { HOME: home })).toBe(true);
    // The CLI names the folder after the real directory: a symlink to the project finds it too.
    const real = join(tempDir(), "real project");
    mkdirSync(real);
    const link = join(tempDir(), "link");
    symlinkSync(real, link);
    const realDir = join(home, ".claude", "projects", real.replace(/[^A-Za-z0-9]/g, "-"));
    write(realDir, "linked", transcript("linked", "2030-01-01T10:00:00.000Z"), new Date());
    expect(await hasConversation(link, "linked", { HOME: home })).toBe(true);
  });

  it("is false with no transcript, one with no message yet, or an id that names no file", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    expect(await hasConversation(CWD, "never-written", { HOME: home })).toBe(false);
    // What a CLI stopped right after starting may leave: no message line (the CLI then says "No conversation found").
    write(dir, "started", `${JSON.stringify({ type: "summary", summary: "x", leafUuid: "a" })}\n`, new Date());
    expect(await hasConversation(CWD, "started", { HOME: home })).toBe(false);
    write(dir, "empty", "", new Date());
    expect(await hasConversation(CWD, "empty", { HOME: home })).toBe(false);
    write(join(home, ".claude", "projects"), "outside", transcript("outside", "2030-01-01T10:00:00.000Z"), new Date());
    expect(await hasConversation(CWD, `../outside`, { HOME: home })).toBe(false);
  });
});
