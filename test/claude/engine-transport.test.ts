// The engine over its transport seam, with the in-memory pair standing in for the CLI: the
// handshake and the prompt go to stdin, numbered stdout lines become events (the last one
// processed is kept), a write the CLI no longer reads ends the run, print mode closes stdin at
// once, a slow consumer pauses the transport, a crash before any output is reported.
import { afterEach, describe, expect, it } from "vitest";
import { allowAllController, createClaudeEngine, type SessionHandle } from "../../src/claude/index.js";
import type { RunCompleted } from "../../src/domain/index.js";
import { line } from "../support/fake-claude/index.js";
import {
  answerControlRequests,
  createInMemoryLauncher,
  onEachStdin,
  type FakeCliEnd,
} from "../support/in-memory-cli.js";
import { collect, isRunCompleted } from "./harness.js";

const handles: SessionHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

function open(onLaunch: (cli: FakeCliEnd) => void, spec: { print?: boolean } = {}) {
  const launcher = createInMemoryLauncher(onLaunch);
  const engine = createClaudeEngine({ env: {}, launcher });
  const handle = engine.openSession({ cwd: "/tmp", permissionMode: "default", ...spec }, allowAllController());
  handles.push(handle);
  return { launcher, handle, events: collect(handle) };
}

/** A CLI that answers each user message with one text turn. */
function chattyCli(cli: FakeCliEnd): void {
  answerControlRequests(cli);
  onEachStdin(
    cli,
    (m) => m["type"] === "user",
    () => {
      cli.print(line.init());
      cli.print(line.text("Hi there."));
      cli.print(line.result("Hi there."));
    },
  );
}

describe("engine over the transport seam", () => {
  it("writes initialize and the prompt to stdin and turns numbered lines into a completed run", async () => {
    const { launcher, handle, events } = open(chattyCli);
    const runId = await handle.startRun("Say hi");
    const done = await events.waitFor((e): e is RunCompleted => isRunCompleted(e) && e.runId === runId);
    expect(done).toMatchObject({ ok: true, answer: "Hi there.", sessionId: "sess-fake-1" });
    const cli = launcher.launched[0]!;
    expect(cli.stdin.map((m) => m["type"])).toEqual(["control_request", "user"]);
    expect(cli.stdin[0]).toMatchObject({ request: { subtype: "initialize" } });
    // control_response, init, text, result: the last line processed is the fourth.
    expect(handle.lastLineSeq).toBe(4);
    expect(cli.request.args).toContain("--input-format");
  });

  it("ends the run as stdin_closed when the CLI no longer reads its input", async () => {
    // It is gone before anything can be written to it (it crashed while starting).
    const { handle, events } = open((cli) => cli.exit({ code: 1 }, "fatal: cannot read settings"));
    const runId = await handle.startRun("Say hi");
    const done = await events.waitFor((e): e is RunCompleted => isRunCompleted(e) && e.runId === runId);
    expect(done).toMatchObject({
      ok: false,
      error: { reason: "stdin_closed", what: expect.stringContaining("no longer reading its input") },
    });
  });

  it("print mode puts the prompt in the arguments and closes stdin at once", async () => {
    const { launcher, handle, events } = open(
      (cli) => {
        cli.onStdinClosed = () => {
          cli.print(line.init());
          cli.print(line.result("Printed."));
          cli.exit({ code: 0 });
        };
      },
      { print: true },
    );
    const runId = await handle.startRun("Print this");
    const done = await events.waitFor((e): e is RunCompleted => isRunCompleted(e) && e.runId === runId);
    expect(done).toMatchObject({ ok: true, answer: "Printed." });
    const cli = launcher.launched[0]!;
    expect(cli.request.args.at(-1)).toBe("Print this");
    expect(cli.stdin).toEqual([]);
    expect(cli.stdinClosed).toBe(true);
  });

  it("pauses the transport while the consumer lags and resumes it, losing nothing", async () => {
    const lines = 2_000;
    let cli: FakeCliEnd | undefined;
    const launcher = createInMemoryLauncher((c) => {
      cli = c;
      answerControlRequests(c);
      void c
        .nextStdin((m) => m["type"] === "user")
        .then(() => {
          c.print(line.init());
          for (let i = 0; i < lines; i++) c.print(line.text(`step ${i}`));
          c.print(line.result("done"));
        });
    });
    const handle = createClaudeEngine({ env: {}, launcher }).openSession(
      { cwd: "/tmp", permissionMode: "default" },
      allowAllController(),
    );
    handles.push(handle);
    await handle.startRun("Go");
    let sawPause = false;
    const texts: string[] = [];
    for await (const event of handle.events()) {
      sawPause ||= cli?.paused === true;
      if (event.type === "text") texts.push(event.text);
      if (event.type === "run_completed") break;
      // A slow consumer: a macrotask per event.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(sawPause).toBe(true);
    expect(texts).toHaveLength(lines);
    expect(texts.at(-1)).toBe(`step ${lines - 1}`);
  });

  it("reports a crash before any output with the stderr tail", async () => {
    const { handle, events } = open((cli) => {
      void cli
        .nextStdin((m) => m["type"] === "user")
        .then(() => cli.exit({ code: 2 }, "error: unknown option '--bogus'"));
    });
    const runId = await handle.startRun("Say hi");
    const done = await events.waitFor((e): e is RunCompleted => isRunCompleted(e) && e.runId === runId);
    expect(done.ok).toBe(false);
    expect(done.error).toMatchObject({
      reason: "exited_before_output",
      exitCode: 2,
      what: expect.stringContaining("unknown option '--bogus'"),
      hint: expect.stringContaining("claude.extra_args"),
    });
  });
});
