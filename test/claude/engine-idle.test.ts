// The idle close of a kept process, with the in-memory CLI and a manual clock: an idle process
// is ended after limits.idle_session_minutes, but not while a background task it started (a
// Monitor) still runs: that task starts turns of its own. Once it ends, the idle close comes back.
import { afterEach, describe, expect, it } from "vitest";
import { allowAllController, createClaudeEngine, type SessionHandle } from "../../src/claude/index.js";
import type { RunCompleted } from "../../src/domain/index.js";
import { line } from "../support/fake-claude/index.js";
import { createFakeClock } from "../support/fake-clock.js";
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

const task = (subtype: string, extra: Record<string, unknown> = {}) => ({
  type: "system",
  subtype,
  task_id: "mon-1",
  session_id: "sess-fake-1",
  ...extra,
});

/** Answers the first message with a Monitor call that leaves a background task running. */
function monitorCli(cli: FakeCliEnd): void {
  answerControlRequests(cli);
  onEachStdin(
    cli,
    (m) => m["type"] === "user",
    () => {
      cli.print(line.init());
      cli.print(
        task("task_started", {
          tool_use_id: "toolu_mon",
          task_type: "local_bash",
          description: "watch the build",
          is_backgrounded: true,
        }),
      );
      cli.print(line.result("Monitor armed."));
    },
  );
}

describe("idle close", () => {
  it("keeps a process whose Monitor still runs, and closes it once the Monitor ended", async () => {
    const clock = createFakeClock(0);
    const launcher = createInMemoryLauncher(monitorCli);
    const engine = createClaudeEngine({ env: {}, launcher, clock });
    const handle = engine.openSession({ cwd: "/tmp", permissionMode: "default", idleMs: 60_000 }, allowAllController());
    handles.push(handle);
    const events = collect(handle);
    const runId = await handle.startRun("watch the build");
    await events.waitFor((e): e is RunCompleted => isRunCompleted(e) && e.runId === runId);
    const cli = launcher.launched[0]!;

    clock.advance(5 * 60_000);
    expect(cli.stdinClosed).toBe(false);

    cli.print(task("task_notification", { status: "completed" }));
    await events.waitFor((e) => e.type === "task_changed" && e.phase === "finished");
    clock.advance(60_000);
    expect(cli.stdinClosed).toBe(true);
  });
});
