// The logger: JSON lines in DATA/logs with every field, secrets redacted on every line,
// no prompt text above debug, pretty lines only for a terminal, size-based rotation, and a full
// disk that loses lines, never Telecode.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, formatPrettyLine, RotatingFileStream, type ClosableLogger } from "../../src/log/index.js";
import { silentLogger } from "../../src/ports/index.js";

const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0";
const dirs: string[] = [];
const loggers: ClosableLogger[] = [];
afterEach(() => {
  for (const l of loggers.splice(0)) l.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "telecode-log-"));
  dirs.push(dir);
  return dir;
}

function fileLogger(options: Parameters<typeof createLogger>[0] = {}): {
  logger: ClosableLogger;
  lines: () => Record<string, unknown>[];
} {
  const dataDir = tempDir();
  const logger = createLogger({ dataDir, stderr: null, ...options });
  loggers.push(logger);
  return {
    logger,
    lines: () =>
      readFileSync(join(dataDir, "logs", "telecode.log"), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

function captureStderr(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream: PassThrough & { isTTY?: boolean } = new PassThrough();
  stream.isTTY = isTTY;
  let text = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => (text += chunk));
  return { stream, text: () => text };
}

describe("createLogger", () => {
  it("writes dotted events with their fields as JSON lines to DATA/logs/telecode.log (0600)", () => {
    const { logger, lines } = fileLogger();
    logger.event("claude.spawned", { sessionId: "s1", runId: "r1", pid: 42 });
    logger.child({ runId: "r2" }).event("outbox.retry", { retryAfterS: 3 }, "warn");
    logger.debug({ event: "hidden.debug" });
    expect(lines()).toEqual([
      expect.objectContaining({ level: 30, event: "claude.spawned", sessionId: "s1", runId: "r1", pid: 42 }),
      expect.objectContaining({ level: 40, event: "outbox.retry", runId: "r2", retryAfterS: 3 }),
    ]);
    expect(typeof lines()[0]?.["time"]).toBe("string");
    expect(statSync(logger.filePath ?? "").mode & 0o777).toBe(0o600);
  });

  it("redacts the bot token and API keys from messages, fields, bindings and error stacks", () => {
    const { logger, lines } = fileLogger({ secrets: ["my-own-secret-value"] });
    logger
      .child({ url: `https://api.telegram.org/bot${TOKEN}` })
      .error(
        { err: new Error(`401 for ${TOKEN}`), key: "sk-ant-api03-SECRETSECRET" },
        "call failed with my-own-secret-value",
      );
    logger.addSecret("learned-later-secret");
    logger.info({ note: "learned-later-secret" });
    const text = readFileSync(logger.filePath ?? "", "utf8");
    expect(text).not.toContain("AAHdqTcv");
    expect(text).not.toContain("SECRETSECRET");
    expect(text).not.toContain("my-own-secret-value");
    expect(text).not.toContain("learned-later-secret");
    const [first] = lines();
    expect(first).toMatchObject({ msg: "call failed with [redacted]", key: "sk-ant-[redacted]" });
    expect((first?.["err"] as { message: string; stack: string }).message).toBe("401 for 123456789:[redacted]");
  });

  it("keeps prompt text out of the log above debug level", () => {
    const { logger, lines } = fileLogger({ level: "debug" });
    logger.event("run.started", { runId: "r1", prompt: "please delete prod" });
    logger.warn({ content: "the model's answer" });
    logger.debug({ prompt: "please delete prod" });
    expect(lines().map((l) => [l["prompt"], l["content"]])).toEqual([
      ["[18 chars]", undefined],
      [undefined, "[18 chars]"],
      ["please delete prod", undefined],
    ]);
  });

  it("prints short pretty lines to stderr when it is a terminal, and nothing when it is not", () => {
    const tty = captureStderr(true);
    const a = createLogger({ stderr: tty.stream });
    a.event("telegram.started", { bot: "@tc_bot" });
    a.info({ runId: "r1" }, "hello there");
    expect(tty.text()).toMatch(/^\d\d:\d\d:\d\d INFO {2}telegram\.started bot=@tc_bot\n/);
    expect(tty.text()).toContain("INFO  runId=r1 — hello there\n");

    const pipe = captureStderr(false);
    const b = createLogger({ stderr: pipe.stream });
    b.error({ event: "x.y" });
    expect(pipe.text()).toBe("");
  });

  it("drops lines below its level", () => {
    const { logger, lines } = fileLogger({ level: "warn" });
    logger.info({ event: "a.b" });
    logger.warn({ event: "c.d" });
    expect(lines().map((l) => l["event"])).toEqual(["c.d"]);
  });
});

describe("RotatingFileStream", () => {
  it("rotates by size, keeps maxFiles old files, and never splits a line", () => {
    const dir = tempDir();
    const stream = new RotatingFileStream({ dir, maxBytes: 100, maxFiles: 2 });
    const line = (n: number): string => `${JSON.stringify({ n, pad: "x".repeat(30) })}\n`;
    for (let n = 1; n <= 10; n++) stream.write(line(n));
    stream.close();
    const read = (name: string): string => readFileSync(join(dir, name), "utf8");
    // Lines are 47-48 bytes, so two fit under 100.
    expect(read("telecode.log")).toBe(line(9) + line(10));
    expect(read("telecode.log.1")).toBe(line(7) + line(8));
    expect(read("telecode.log.2")).toBe(line(5) + line(6));
    expect(existsSync(join(dir, "telecode.log.3"))).toBe(false);
    const reopened = new RotatingFileStream({ dir, maxBytes: 100, maxFiles: 2 });
    reopened.write(line(11));
    reopened.close();
    expect(read("telecode.log")).toBe(line(11));
    expect(read("telecode.log.1")).toBe(line(9) + line(10));
  });
});

/** A log directory whose telecode.log is on a full disk (a link to /dev/full) until the link goes. */
function fullDiskLogDir(): { dir: string; makeRoom: () => void } {
  const dir = tempDir();
  symlinkSync("/dev/full", join(dir, "telecode.log"));
  return { dir, makeRoom: () => unlinkSync(join(dir, "telecode.log")) };
}

describe.runIf(existsSync("/dev/full"))("a log on a full disk", () => {
  it("drops the lines it cannot write, never throws, and says how many it lost once it can write", () => {
    const { dir, makeRoom } = fullDiskLogDir();
    const failures: unknown[] = [];
    const stream = new RotatingFileStream({ dir, onWriteFailed: (error) => failures.push(error) });
    for (let n = 1; n <= 3; n++) expect(() => stream.write(`{"n":${n}}\n`)).not.toThrow();
    expect(failures).toEqual([expect.objectContaining({ code: "ENOSPC" })]);
    makeRoom();
    stream.write('{"n":4}\n');
    stream.close();
    stream.write('{"n":5}\n');
    const lines = readFileSync(join(dir, "telecode.log"), "utf8").trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        level: 40,
        event: "log.lines_lost",
        lost: 3,
        reason: "ENOSPC: no space left on the device",
      }),
      { n: 4 },
    ]);
  });

  it("keeps Telecode going, and says so once on stderr", () => {
    const dataDir = tempDir();
    const dir = join(dataDir, "logs");
    mkdirSync(dir);
    symlinkSync("/dev/full", join(dir, "telecode.log"));
    const stderr = new PassThrough();
    let said = "";
    stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
    const logger = createLogger({ dataDir, stderr: Object.assign(stderr, { isTTY: false }) });
    loggers.push(logger);
    expect(() => {
      logger.event("serve.signal", { signal: "SIGTERM" });
      logger.event("telegram.stopping", {}, "warn");
    }).not.toThrow();
    expect(said).toBe(
      `telecode: the log file ${join(dir, "telecode.log")} cannot be written (ENOSPC: no space left on the device); its lines are lost until it can be.\n`,
    );
  });
});

describe("formatPrettyLine and silentLogger", () => {
  it("passes non-JSON through and shows an error's message", () => {
    expect(formatPrettyLine("plain text")).toBe("plain text\n");
    expect(
      formatPrettyLine(
        JSON.stringify({ level: 50, time: "2030-01-01T10:11:12.000Z", event: "a.b", err: { message: "bad thing" } }),
      ),
    ).toBe('10:11:12 ERROR a.b err="bad thing"\n');
  });

  it("accepts every call and writes nothing", () => {
    silentLogger.child({ a: 1 }).event("a.b", { c: 2 });
    silentLogger.error({ err: new Error("x") });
    expect(silentLogger.child({})).toBe(silentLogger);
  });
});
