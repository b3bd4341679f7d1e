// Progress on stderr: plain lines without a TTY; on a TTY one status line redrawn in place.
import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { displayWidth } from "../../src/render/index.js";
import { ProgressView } from "../../src/terminal/index.js";

class Sink extends Writable {
  text = "";
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void): void {
    this.text += chunk.toString("utf8");
    done();
  }
}

describe("ProgressView", () => {
  it("prints plain lines without cursor codes when not a TTY, and leaves the answer to stdout", () => {
    const out = new Sink();
    const view = new ProgressView({ out, live: false, now: () => 0 });
    view.show({
      type: "tool_started",
      toolUseId: "t1",
      name: "Bash",
      kind: "command",
      title: "npm test",
      input: {},
      parentToolUseId: null,
    });
    view.show({
      type: "run_completed",
      runId: "r",
      ok: true,
      answer: "The answer.",
      interrupted: false,
      cancelled: false,
      costUsd: 0,
      durationMs: 1,
    });
    expect(out.text).toContain("npm test");
    expect(out.text).not.toContain("\x1b[");
    expect(out.text).not.toContain("The answer.");
  });

  it("keeps the live status line within the terminal's width as drawn, wide characters and resizes included", () => {
    const out = new Sink();
    const terminal = { columns: 60 };
    const view = new ProgressView({ out, live: true, now: () => 0, columns: () => terminal.columns });
    const bash = (id: string, title: string) =>
      ({
        type: "tool_started",
        toolUseId: id,
        name: "Bash",
        kind: "command",
        title,
        input: {},
        parentToolUseId: null,
      }) as const;
    view.show(bash("t1", "echo 日本語のテキストを表示するコマンドです 🎉🎉🎉 && sleep 3"));
    terminal.columns = 30;
    view.show(bash("t2", "echo 次のコマンドも日本語で書かれています"));
    // Each redraw clears the status line; lines printed above it end with a newline.
    const drawn = out.text.split("\r\x1b[2K").map((segment) => segment.split("\n").at(-1)!);
    expect(drawn.length).toBeGreaterThanOrEqual(2);
    expect(displayWidth(drawn[0]!)).toBeLessThanOrEqual(59);
    expect(displayWidth(drawn.at(-1)!)).toBeLessThanOrEqual(29);
    expect(drawn.at(-1)).toMatch(/…$/);
  });

  it("shows paths relative to the project from the first line, before the CLI names its directory", () => {
    const out = new Sink();
    const view = new ProgressView({ out, live: true, now: () => 0, cwd: "/home/ann/app" });
    const read = {
      type: "tool_started",
      toolUseId: "t1",
      name: "Read",
      kind: "tool",
      title: "/home/ann/app/src/login.ts",
      input: {},
      parentToolUseId: null,
    } as const;
    view.show(read);
    expect(view.statusText()).toContain("Read src/login.ts");
    view.show({ ...read, type: "tool_finished", ok: false, detail: "/home/ann/app/src/login.ts: no such file" });
    view.finish();
    expect(out.text).toContain("src/login.ts: no such file");
    expect(out.text).not.toContain("/home/ann/app");
  });

  it("redraws one status line with elapsed time, the running tool and the latest note", () => {
    const out = new Sink();
    let now = 0;
    const view = new ProgressView({ out, live: true, now: () => now });
    view.show({
      type: "tool_started",
      toolUseId: "t1",
      name: "Bash",
      kind: "command",
      title: "npm test",
      input: {},
      parentToolUseId: null,
    });
    view.show({ type: "note", kind: "api_retry", text: "API error 529 (overloaded) — retrying in 1 s, attempt 1/10" });
    now = 12_000;
    view.refresh();
    expect(view.statusText()).toMatch(/12 s · Bash `npm test` · API error 529/);
    expect(out.text).toContain("\r\x1b[2K");
    view.finish();
    expect(out.text.endsWith("\r\x1b[2K")).toBe(true);
  });
});

describe("ProgressView and the answer", () => {
  const text = (t: string) => ({ type: "text" as const, text: t, parentToolUseId: null });
  const finished = (answer: string) => ({
    type: "turn_finished" as const,
    ok: true,
    answer,
    interrupted: false,
    costUsd: 0,
    numTurns: 1,
    durationMs: 1,
    origin: "person" as const,
  });
  const tool = {
    type: "tool_started" as const,
    toolUseId: "t1",
    name: "Read",
    kind: "tool" as const,
    title: "app.js",
    input: {},
    parentToolUseId: null,
  };

  it("keeps the answer off the progress when stdout prints it, but shows text between tool calls", () => {
    const out = new Sink();
    const view = new ProgressView({ out, live: false, now: () => 0, answerOnStdout: true });
    view.show(text("Let me read the file first."));
    view.show(tool);
    view.show(text("The file prints v1."));
    view.show(finished("The file prints v1."));
    view.finish();
    expect(out.text).toContain("Let me read the file first.\n▸ 📖 Read app.js");
    expect(out.text).not.toContain("The file prints v1.");
  });

  it("shows the text when the answer is not printed on stdout (--json), or the turn failed", () => {
    const json = new Sink();
    const jsonView = new ProgressView({ out: json, live: false, now: () => 0, answerOnStdout: false });
    jsonView.show(text("Hello."));
    jsonView.show(finished("Hello."));
    expect(json.text).toContain("Hello.");
    const failed = new Sink();
    const failedView = new ProgressView({ out: failed, live: false, now: () => 0, answerOnStdout: true });
    failedView.show(text("Partial work."));
    failedView.show({ ...finished(""), ok: false });
    expect(failed.text).toContain("Partial work.");
  });
});
