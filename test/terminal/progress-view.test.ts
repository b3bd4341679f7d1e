// Progress on stderr: plain lines without a TTY; on a TTY one status line redrawn in place.
import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
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
