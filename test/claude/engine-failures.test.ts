// The engine when things go wrong, against the real CLI: cancel during a long Bash, API
// errors retried and exhausted, the CLI killed mid-turn, a session it no longer has, a missing
// binary, bad flags, silence.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { askController, isClaudeError } from "../../src/claude/index.js";
import { latestSessionId } from "../../src/claude/transcripts.js";
import { SESSION_GONE_NOTE, type TelecodeEvent } from "../../src/domain/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { processesRunning } from "../support/processes.js";
import { makeHarness, processGroupAlive, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const isBashStarted = (e: TelecodeEvent): boolean => e.type === "tool_started" && e.name === "Bash";

/** A slow command the CLI's sleep guard does not recognise: its grandchild is `sleep 41.25`. */
async function writeSlowScript(harness: Harness): Promise<void> {
  await writeFile(join(harness.ws.cwd, "slow.sh"), "sleep 41.25\necho finished\n");
}

describe("claude engine failures with the real CLI", () => {
  it("cancels a run during a long Bash: interrupt, reads cancelled, the session goes on", async () => {
    h = await makeHarness({ replies: [reply.bash("bash ./slow.sh", "Wait a while"), reply.text("Back again.")] });
    await writeSlowScript(h);
    const { session, events } = h.open();
    const runId = await session.startRun("Run the slow command");
    await events.waitFor(isBashStarted);
    const pid = session.pid;
    await session.cancelRun(runId);
    const done = await events.waitFor((e) => e.type === "run_completed" && e.runId === runId);
    expect(done).toMatchObject({ ok: false, cancelled: true, interrupted: true });
    expect(done.type === "run_completed" && done.error).toBeUndefined();
    const next = await h.run(session, events, "Are you there?");
    expect(next).toMatchObject({ ok: true, answer: "Back again." });
    expect(session.pid).toBe(pid);
  });

  it("retries an overloaded API with notes, then answers", async () => {
    h = await makeHarness({ replies: [reply.overloaded(), reply.overloaded(), reply.text("Recovered.")] });
    const { session, events } = h.open();
    const done = await h.run(session, events, "Hello");
    expect(done).toMatchObject({ ok: true, answer: "Recovered." });
    const retries = events.events.filter((e) => e.type === "note" && e.kind === "api_retry");
    expect(retries).toHaveLength(2);
    expect(retries[0]?.type === "note" && retries[0].text).toContain("529");
  });

  it("ends the run with an error naming the status when the API keeps failing", async () => {
    h = await makeHarness({ replies: [reply.error(500), reply.error(500)], env: { CLAUDE_CODE_MAX_RETRIES: "1" } });
    const { session, events } = h.open();
    const done = await h.run(session, events, "Hello");
    expect(done.ok).toBe(false);
    expect(done.cancelled).toBe(false);
    expect(done.error).toMatchObject({ reason: "api_error", apiStatus: 500, what: expect.stringMatching(/500/) });
  });

  it("says that the API could not be reached, and what to check, when every try loses the connection", async () => {
    const broken = reply.cut(0, reply.text("Never arrives."));
    h = await makeHarness({ replies: [broken, broken], env: { CLAUDE_CODE_MAX_RETRIES: "1" } });
    const { session, events } = h.open();
    const done = await h.run(session, events, "Hello");
    const retries = events.events.filter((e) => e.type === "note" && e.kind === "api_retry");
    // The CLI's category for a lost connection is "unknown", which would tell a person nothing.
    expect(retries.map((e) => e.type === "note" && e.text)).toEqual([
      expect.stringMatching(/^API connection failed — retrying in \d+ ms, attempt 1\/1$/),
    ]);
    expect(done).toMatchObject({ ok: false, cancelled: false });
    // The CLI's advice names ANTHROPIC_BASE_URL because the harness sets it (to the fake API).
    expect(done.error).toEqual({
      reason: "api_error",
      passing: true,
      what: "Claude Code could not reach the API: Connection dropped (ECONNRESET).",
      hint: "Claude Code already retried. Check the gateway set in ANTHROPIC_BASE_URL, then try again.",
    });
  });

  it("ends the run with a clear error when the CLI is killed mid-turn, and resumes next time", async () => {
    const harness = await makeHarness({
      replies: [reply.bash("bash ./slow.sh", "Wait a while"), reply.text("Resumed fine.")],
    });
    h = harness;
    await writeSlowScript(harness);
    const { session, events } = harness.open();
    const runId = await session.startRun("Run the slow command");
    await events.waitFor(isBashStarted);
    const pid = session.pid as number;
    await expect
      .poll(() => processesRunning(["sleep", "41.25"]).length, { timeout: 15_000, interval: 50 })
      .toBeGreaterThan(0);
    // Resuming needs the session on disk: the CLI writes its transcript a moment after the tool starts.
    const started = events.events.find((e) => e.type === "session_started");
    await expect
      .poll(() => latestSessionId(harness.ws.cwd, harness.ws.env), { timeout: 15_000, interval: 50 })
      .toBe(started?.type === "session_started" ? started.sessionId : "no session_started");
    process.kill(pid, "SIGKILL");
    const done = await events.waitFor((e) => e.type === "run_completed" && e.runId === runId);
    expect(done).toMatchObject({ ok: false, cancelled: false });
    expect(done.type === "run_completed" && done.error).toMatchObject({
      reason: "exited",
      signal: "SIGKILL",
      what: expect.stringMatching(/^Claude Code exited unexpectedly \(signal SIGKILL\)/),
      hint: expect.stringMatching(/send your message again/i),
    });
    // The CLI ran Bash in a session of its own; its `sleep` must not outlive the crash.
    expect(processesRunning(["sleep", "41.25"])).toEqual([]);
    const next = await harness.run(session, events, "Try again");
    expect(next).toMatchObject({
      ok: true,
      answer: "Resumed fine.",
      sessionId: done.type === "run_completed" ? done.sessionId : "",
    });
    expect(session.pid).not.toBe(pid);
  });

  it("fails to resume a session the CLI no longer has, or starts a fresh one in its place when asked to", async () => {
    const gone = "0b0e9a43-1111-4222-8333-944445555666";
    h = await makeHarness({ replies: [reply.text("Fresh start.")] });
    const strict = h.open({ resume: gone });
    const failed = await h.run(strict.session, strict.events, "Carry on");
    expect(failed).toMatchObject({ ok: false, error: { reason: "session_not_found" } });
    expect(failed.error?.what).toBe(
      "Claude Code no longer has session 0b0e9a43 on this computer (its transcript is gone), so the message was not run.",
    );

    // `telecode run --resume` takes a session's title too; a name that is neither is said as such.
    const unknown = h.open({ resume: "not-a-session" });
    const refused = await h.run(unknown.session, unknown.events, "Carry on");
    expect(refused.error).toMatchObject({
      reason: "session_not_found",
      what: "Claude Code has no session with the id or title “not-a-session” in this project, so the message was not run.",
    });

    const lenient = h.open({ resume: gone, freshIfGone: true });
    const done = await h.run(lenient.session, lenient.events, "Carry on");
    expect(done).toMatchObject({ ok: true, answer: "Fresh start." });
    expect(done.sessionId).not.toBe(gone);
    expect(lenient.events.events).toContainEqual({
      type: "note",
      kind: "warning",
      key: SESSION_GONE_NOTE,
      text: "Claude Code no longer has session 0b0e9a43 on this computer (its transcript is gone), so this message starts a fresh session.",
    });
  });

  it("ends the process group, grandchildren included, when a session closes during a tool", async () => {
    h = await makeHarness({ replies: [reply.bash("bash ./slow.sh", "Wait")] });
    await writeSlowScript(h);
    const { session, events } = h.open();
    const runId = await session.startRun("Wait for me");
    await events.waitFor(isBashStarted);
    const pid = session.pid as number;
    // Wait until Bash's `sleep` really runs, then end the session through the one shutdown path.
    await expect
      .poll(() => processesRunning(["sleep", "41.25"]).length, { timeout: 15_000, interval: 50 })
      .toBeGreaterThan(0);
    await session.close();
    const done = await events.waitFor((e) => e.type === "run_completed" && e.runId === runId);
    expect(done).toMatchObject({ ok: false, cancelled: true });
    expect(processGroupAlive(pid)).toBe(false);
    expect(processesRunning(["sleep", "41.25"])).toEqual([]);
  });

  it("reports a missing binary with where it looked and how to install it", async () => {
    const missing = "/nonexistent/telecode-test/claude";
    h = await makeHarness({ claudePath: missing });
    const { session, events } = h.open();
    const done = await h.run(session, events, "Hello");
    expect(done.ok).toBe(false);
    expect(done.error).toEqual({
      reason: "not_found",
      what: `Claude Code CLI not found (looked for: ${missing}).`,
      hint: "On the computer running Telecode, install it with `npm i -g @anthropic-ai/claude-code`, or set claude.path to its full path (`which claude` there prints it); until then every message fails the same way.",
    });
  });

  it("refuses extra args that are not allowed when the session opens, and quotes stderr for a value the CLI rejects", async () => {
    const harness = await makeHarness();
    h = harness;
    let refused: unknown;
    try {
      harness.open({ extraArgs: ["--permission-mode=bypassPermissions"] });
    } catch (error) {
      refused = error;
    }
    expect(isClaudeError(refused, "claude.extra_args")).toBe(true);
    expect((refused as Error).message).toContain("--permission-mode=bypassPermissions");

    expect(() => harness.open({ extraArgs: ["--no-such-flag"] })).toThrow(/not a flag Telecode knows to be safe/);

    const { session, events } = harness.open({ extraArgs: ["--max-budget-usd=-5"] });
    const done = await harness.run(session, events, "Hello");
    expect(done.ok).toBe(false);
    expect(done.error).toMatchObject({
      reason: "exited_before_output",
      exitCode: 1,
      what: expect.stringMatching(
        /^Claude Code exited with code 1 before any output: .*--max-budget-usd must be a number/,
      ),
      hint: "On the computer running Telecode, check that `claude` starts in a terminal, and claude.extra_args in the config.",
    });
  });

  it("notes a stall and ends a silent run at the hard ceiling with a clear error", async () => {
    h = await makeHarness({ replies: [reply.hang()] });
    const { session, events } = h.open({ stallNoteMs: 300, hardSilenceMs: 2500 });
    const done = await h.run(session, events, "Hello");
    expect(
      events.events.some((e) => e.type === "note" && e.kind === "stall" && e.text.startsWith("no output for")),
    ).toBe(true);
    expect(done.ok).toBe(false);
    expect(done.error).toMatchObject({
      reason: "silence",
      what: expect.stringMatching(/^Claude Code produced no output for \d+(\.\d)? s and was stopped\./),
      hint: expect.stringMatching(/^Send your message again/),
    });
    expect(session.pid).toBeUndefined();
  });

  it("waits for a person's approval past the silence thresholds: no stall note, no silence stop", async () => {
    h = await makeHarness({ replies: [reply.bash("touch approved.txt", "Make a file"), reply.text("Done.")] });
    // Only the wait on the person is asserted: on a slow machine an ordinary gap before the
    // question may earn a stall note, and that note would be right. The hard limit leaves the
    // CLI 10 s of silence around the question (a loaded machine has taken over 6 s, with three
    // test files at a time), and the person takes longer still.
    const window = { from: -1, to: -1 };
    const slowPerson = askController((request) => {
      window.from = events.events.length;
      return new Promise((resolve) =>
        setTimeout(() => {
          window.to = events.events.length;
          resolve({ behavior: "allow", updatedInput: { ...request.input }, by: "person" });
        }, 12_000),
      );
    });
    const { session, events } = h.open({ stallNoteMs: 1000, hardSilenceMs: 10_000 }, slowPerson);
    const done = await h.run(session, events, "Make a file");
    expect(done).toMatchObject({ ok: true, answer: "Done." });
    expect(window.from).toBeGreaterThanOrEqual(0);
    const whileAsked = events.events.slice(window.from, window.to);
    expect(whileAsked.filter((e) => e.type === "note" && e.kind === "stall")).toEqual([]);
    expect(events.events).toContainEqual(expect.objectContaining({ type: "tool_finished", name: "Bash", ok: true }));
  });
});
