// The engine against the real CLI and the fake API: text replies, approvals, the live
// process, resume. Each test has its own fake API, HOME and git repository.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { denyAllController, NOBODY_TO_APPROVE_MESSAGE } from "../../src/claude/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { listProcesses } from "../support/processes.js";
import { makeHarness, type Harness } from "./harness.js";

let h: Harness | undefined;

/** Pids of live processes with `argument` among their arguments. */
function processesWithArgument(argument: string): number[] {
  return listProcesses()
    .filter((p) => p.argv.includes(argument))
    .map((p) => p.pid);
}
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("claude engine with the real CLI", () => {
  it("runs a text turn and completes the run with the answer", async () => {
    h = await makeHarness({ replies: [reply.text("Hello from the fake.")] });
    const { session, events } = h.open();
    const done = await h.run(session, events, "Say hello");
    expect(done).toMatchObject({ ok: true, answer: "Hello from the fake.", cancelled: false, interrupted: false });
    expect(done.sessionId).toMatch(/[0-9a-f-]{36}/);
    const types = events.events.map((e) => e.type);
    expect(types.indexOf("session_started")).toBeLessThan(types.indexOf("turn_finished"));
    expect(types.indexOf("turn_finished")).toBe(types.indexOf("run_completed") - 1);
    expect(session.initializeReply?.["commands"]).toBeDefined();
  });

  it("asks for a Bash call and runs it when allowed", async () => {
    h = await makeHarness({
      replies: [
        reply.bash("touch created-by-test.txt && echo made", "Create a marker file"),
        reply.text("Created it."),
      ],
    });
    const { session, events } = h.open();
    const done = await h.run(session, events, "Please create a marker file");
    expect(done).toMatchObject({ ok: true, answer: "Created it." });
    expect(existsSync(join(h.ws.cwd, "created-by-test.txt"))).toBe(true);
    const requested = events.events.find((e) => e.type === "approval_requested");
    expect(requested?.type === "approval_requested" && requested.request.toolName).toBe("Bash");
    expect(events.events).toContainEqual(
      expect.objectContaining({ type: "approval_resolved", decision: "allow", by: "approve all" }),
    );
    expect(h.api.requests()[1]?.toolResults[0]).toMatchObject({ isError: false, text: "made" });
  });

  it("denies a Bash call with a message the model reads", async () => {
    h = await makeHarness({
      replies: [
        reply.bash("touch created-by-test.txt && echo made", "Create a marker file"),
        reply.text("I could not create it."),
      ],
    });
    const { session, events } = h.open({}, denyAllController());
    const done = await h.run(session, events, "Please create a marker file");
    expect(done).toMatchObject({ ok: true, answer: "I could not create it." });
    expect(existsSync(join(h.ws.cwd, "created-by-test.txt"))).toBe(false);
    const result = h.api.requests()[1]?.toolResults[0];
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain(NOBODY_TO_APPROVE_MESSAGE);
    expect(events.events).toContainEqual(expect.objectContaining({ type: "approval_resolved", decision: "deny" }));
  });

  it("writes a second message to the same live process", async () => {
    h = await makeHarness({ replies: [reply.text("First answer."), reply.text("Second answer.")] });
    const { session, events } = h.open();
    const first = await h.run(session, events, "First question");
    const pid = session.pid;
    expect(pid).toBeDefined();
    const second = await h.run(session, events, "Second question");
    expect(session.pid).toBe(pid);
    expect([first.answer, second.answer]).toEqual(["First answer.", "Second answer."]);
    expect(second.sessionId).toBe(first.sessionId);
    // The second request carries the first exchange: same conversation, same process.
    expect(h.api.requests()[1]?.lastPrompt).toBe("Second question");
    expect((h.api.requests()[1]?.body["messages"] as unknown[]).length).toBeGreaterThanOrEqual(3);
  });

  it("changes model and permission mode in the live process; the CLI acks both and the next turn uses them", async () => {
    h = await makeHarness({ replies: [reply.text("First answer."), reply.text("Second answer.")] });
    const { session, events } = h.open();
    await h.run(session, events, "First question");
    const pid = session.pid;
    await session.setModel("claude-opus-4-5");
    await session.setPermissionMode("acceptEdits");
    const second = await h.run(session, events, "Second question");
    expect(second.answer).toBe("Second answer.");
    expect(session.pid).toBe(pid);
    const streamed = h.api.requests().filter((r) => r.stream);
    expect(streamed.at(-1)?.model).toBe("claude-opus-4-5");
    expect(events.events.some((e) => e.type === "mode_changed" && e.mode === "acceptEdits")).toBe(true);
  });

  it("resumes the session with a new process after the idle process was closed", async () => {
    h = await makeHarness({ replies: [reply.text("Before the pause."), reply.text("After the pause.")] });
    const { session, events } = h.open({ idleMs: 200 });
    const first = await h.run(session, events, "Remember the word kiwi");
    const firstPid = session.pid;
    await vi.waitFor(() => expect(session.pid).toBeUndefined(), { timeout: 10_000, interval: 50 });
    const second = await h.run(session, events, "What was the word?");
    expect(second).toMatchObject({ ok: true, answer: "After the pause.", sessionId: first.sessionId });
    expect(session.pid).not.toBe(firstPid);
    const history = JSON.stringify(h.api.requests()[1]?.body["messages"]);
    expect(history).toContain("Remember the word kiwi");
    expect(history).toContain("Before the pause.");
  });

  it("a message that comes while the idle process runs its SessionEnd hook says it waits for it", async () => {
    h = await makeHarness({ replies: [reply.text("Noted."), reply.text("Still here.")] });
    const done = join(h.ws.cwd, "hook-done");
    const hooks = {
      SessionEnd: [{ hooks: [{ type: "command", command: `sleep 4.5 && touch ${done}`, timeout: 30 }] }],
    };
    mkdirSync(join(h.ws.cwd, ".claude"), { recursive: true });
    writeFileSync(join(h.ws.cwd, ".claude", "settings.json"), JSON.stringify({ hooks }));
    const { session, events } = h.open({ idleMs: 200 });
    const first = await h.run(session, events, "Remember the word kiwi");
    // Closed for idling: the process now runs its hook.
    await vi.waitFor(() => expect(session.runsEndHook).toBe(true), { timeout: 10_000, interval: 20 });
    const from = events.events.length;
    const second = await h.run(session, events, "Are you there?");
    expect(second).toMatchObject({ ok: true, answer: "Still here.", sessionId: first.sessionId });
    // The hook ran to its end before the next process started.
    expect(existsSync(done)).toBe(true);
    const notes = events.events.slice(from).filter((e) => e.type === "note");
    expect(notes).toEqual([
      {
        type: "note",
        kind: "info",
        text: "Waiting for this session's last Claude Code process to finish its SessionEnd hooks first.",
      },
    ]);
  });

  it("runs print mode with the prompt after --, and resumes the session for the next run", async () => {
    h = await makeHarness({ replies: [reply.text("Printed."), reply.text("Printed again.")] });
    const { session, events } = h.open({ print: true });
    const first = await h.run(session, events, "-p looks like a flag but is the prompt");
    expect(first).toMatchObject({ ok: true, answer: "Printed." });
    expect(h.api.requests()[0]?.lastPrompt).toBe("-p looks like a flag but is the prompt");
    const second = await h.run(session, events, "And again");
    expect(second).toMatchObject({ ok: true, answer: "Printed again.", sessionId: first.sessionId });
    expect(JSON.stringify(h.api.requests()[1]?.body["messages"])).toContain("-p looks like a flag");
  });

  it("refuses a print-mode run with an image before starting a process, saying to send the words alone", async () => {
    h = await makeHarness({ replies: [reply.text("never")] });
    const { session, events } = h.open({ print: true });
    const prompt = "PRINT-IMAGE what is in it";
    const image = { type: "image", mediaType: "image/png", base64: "iVBORw0KGgo=" } as const;
    await session.startRun([{ type: "text", text: prompt }, image], { runId: "print-image" });
    expect(await events.waitFor((e) => e.type === "run_completed")).toMatchObject({
      runId: "print-image",
      ok: false,
      error: {
        reason: "prompt_unsupported",
        what: "Claude Code cannot take this message as it runs here (in print mode it takes words only).",
        hint: "Send the words alone, without the images or PDFs.",
      },
    });
    expect(processesWithArgument(prompt)).toEqual([]);
    expect(h.api.requests()).toEqual([]);
  });

  it("ends a print-mode run cancelled while its process starts: the prompt in its arguments never runs", async () => {
    h = await makeHarness({ replies: [reply.bash("touch printed.txt", "Make a file"), reply.text("Made it.")] });
    const { session, events } = h.open({ print: true, permissionMode: "bypassPermissions" });
    const prompt = "PRINT-CANCELLED make the file";
    const starting = session.startRun([{ type: "text", text: prompt }], { runId: "print-cancelled" });
    await session.cancelRun("print-cancelled");
    await starting;
    // Its process was started with the prompt in its arguments, and is gone by now.
    expect(processesWithArgument(prompt)).toEqual([]);
    expect(await events.waitFor((e) => e.type === "run_completed")).toMatchObject({
      runId: "print-cancelled",
      ok: false,
      cancelled: true,
    });
    expect(h.api.requests()).toEqual([]);
  });
});
