// What the CLI's transcripts tell: which session "continue the latest one" picks, by the times
// their lines carry, not by file times; and whether a session can be resumed at all (the real
// CLI's own transcripts are exercised end to end in test/e2e/telegram-sessions.test.ts).
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { latestSessionId, writtenDown } from "../../src/claude/transcripts.js";
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

  it("passes over a newer session the CLI was killed while writing: --resume could not open it", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    write(dir, "used", transcript("used", "2030-01-01T10:00:00.000Z"), new Date("2030-01-01T10:00:00Z"));
    const queued = `${JSON.stringify({ type: "queue-operation", timestamp: "2030-01-01T11:00:00.000Z" })}\n`;
    const message = JSON.stringify({ type: "user", timestamp: "2030-01-01T11:00:00.000Z", message: { content: "hi" } });
    write(dir, "torn", queued + message.slice(0, 40), new Date("2030-01-01T11:00:00Z"));
    expect(await latestSessionId(CWD, { HOME: home })).toBe("used");
  });

  it("finds nothing in a project with no transcripts, or none with a timed line", async () => {
    const home = tempDir();
    expect(await latestSessionId(CWD, { HOME: home })).toBeUndefined();
    write(join(home, ".claude", "projects", SLUG), "empty", `${JSON.stringify({ type: "cost-state" })}\n`, new Date());
    expect(await latestSessionId(CWD, { HOME: home })).toBeUndefined();
  });
});

describe("writtenDown", () => {
  it("finds the conversation, and the message asked about, whichever directory names the project", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    const uuid = "7e1ec0de-0000-4000-8000-000000000001";
    const asked = `${JSON.stringify({ type: "user", uuid, message: { role: "user", content: "again" } })}\n`;
    write(dir, "kept", transcript("kept", "2030-01-01T10:00:00.000Z", asked), new Date());
    expect(await writtenDown(CWD, "kept", { HOME: home })).toBe("conversation");
    expect(await writtenDown(CWD, "kept", { HOME: home }, uuid)).toBe("message");
    expect(await writtenDown(CWD, "kept", { HOME: home }, "7e1ec0de-0000-4000-8000-000000000002")).toBe("conversation");
    // The CLI names the folder after the real directory: a symlink to the project finds it too.
    const real = join(tempDir(), "real project");
    mkdirSync(real);
    const link = join(tempDir(), "link");
    symlinkSync(real, link);
    const realDir = join(home, ".claude", "projects", real.replace(/[^A-Za-z0-9]/g, "-"));
    write(realDir, "linked", transcript("linked", "2030-01-01T10:00:00.000Z"), new Date());
    expect(await writtenDown(link, "linked", { HOME: home })).toBe("conversation");
  });

  it("finds a message past the first read, and one cut across two reads", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    const uuid = "7e1ec0de-0000-4000-8000-00000000000a";
    const line = `${JSON.stringify({ type: "user", uuid, message: { role: "user", content: "late" } })}\n`;
    const head = transcript("long", "2030-01-01T10:00:00.000Z");
    // A filler line whose length puts the message's uuid across the 1 MiB mark, then another MiB.
    const cut = 1024 * 1024 - head.length - line.indexOf(uuid) - 20;
    const filler = (n: number): string => `${JSON.stringify({ type: "attachment", content: "x".repeat(n) })}\n`;
    write(dir, "cut", head + filler(cut - 40) + line, new Date());
    expect(await writtenDown(CWD, "cut", { HOME: home }, uuid)).toBe("message");
    write(dir, "far", head + filler(2 * 1024 * 1024) + line, new Date());
    expect(await writtenDown(CWD, "far", { HOME: home }, uuid)).toBe("message");
  });

  it("is nothing with no transcript, one with no message yet, or an id that names no file", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    expect(await writtenDown(CWD, "never-written", { HOME: home })).toBe("nothing");
    // What a CLI stopped right after starting may leave: no message line (the CLI then says "No conversation found").
    write(dir, "started", `${JSON.stringify({ type: "summary", summary: "x", leafUuid: "a" })}\n`, new Date());
    expect(await writtenDown(CWD, "started", { HOME: home }, "7e1ec0de-0000-4000-8000-000000000001")).toBe("nothing");
    write(dir, "empty", "", new Date());
    expect(await writtenDown(CWD, "empty", { HOME: home })).toBe("nothing");
    write(join(home, ".claude", "projects"), "outside", transcript("outside", "2030-01-01T10:00:00.000Z"), new Date());
    expect(await writtenDown(CWD, "../outside", { HOME: home })).toBe("nothing");
  });

  it("counts a message only once its line is whole: a CLI killed while writing leaves the line cut", async () => {
    const home = tempDir();
    const dir = join(home, ".claude", "projects", SLUG);
    const uuid = "7e1ec0de-0000-4000-8000-00000000000c";
    const queued = `${JSON.stringify({ type: "queue-operation", operation: "enqueue" })}\n`;
    const message = `${JSON.stringify({ type: "user", uuid, message: { role: "user", content: "Sleep long" } })}\n`;
    // Claude Code 2.1.332 killed mid-write: its type and uuid are on disk, the line's end is not
    // (it then answers --resume with "No conversation found").
    write(dir, "torn", queued + message.slice(0, message.indexOf(uuid) + uuid.length + 12), new Date());
    expect(await writtenDown(CWD, "torn", { HOME: home })).toBe("nothing");
    expect(await writtenDown(CWD, "torn", { HOME: home }, uuid)).toBe("nothing");
    // Whole, with the next line cut: resumable.
    const next = `${JSON.stringify({ type: "attachment", content: "x".repeat(100) })}`;
    write(dir, "whole", queued + message + next.slice(0, 40), new Date());
    expect(await writtenDown(CWD, "whole", { HOME: home }, uuid)).toBe("message");
    // The line's end in a later read than its start.
    const long = `${JSON.stringify({ type: "user", uuid, message: { role: "user", content: "y".repeat(200_000) } })}\n`;
    write(dir, "long", queued + long, new Date());
    expect(await writtenDown(CWD, "long", { HOME: home }, uuid)).toBe("message");
    write(dir, "long-torn", queued + long.slice(0, 150_000), new Date());
    expect(await writtenDown(CWD, "long-torn", { HOME: home }, uuid)).toBe("nothing");
  });
});
