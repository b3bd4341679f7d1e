// The repositories through the store's public surface, against a real SQLite file in a temp
// directory, with a controlled clock so timestamps are exact.
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeEach, afterEach, describe, expect, it } from "vitest";
import { DATABASE_FILE, openStore, StoreError, type Store } from "../../src/store/index.js";
import { FIRST_INNER_CHAT_ID } from "../../src/domain/index.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("store");
let dir: string;
let clock: number;
let store: Store;

beforeEach(() => {
  dir = tempDir();
  clock = 1_000;
  store = openStore(dir, { now: () => clock });
});
afterEach(() => store.close());

function reopen(): Store {
  store.close();
  store = openStore(dir, { now: () => clock });
  return store;
}

describe("chats", () => {
  it("give defaults for a chat that never changed anything", () => {
    expect(store.chats.get(5)).toEqual({
      chatId: 5,
      mode: null,
      model: null,
      effort: null,
      project: null,
      preview: false,
      questions: true,
      listenToAll: false,
      loops: true,
      updatedAt: 0,
    });
    expect(store.chats.list()).toEqual([]);
  });

  it("change only the fields given and keep them across a reopen", () => {
    store.chats.update(5, { mode: "plan", model: "opus" });
    clock = 2_000;
    store.chats.update(5, { preview: true, effort: "high" });
    expect(reopen().chats.get(5)).toEqual({
      chatId: 5,
      mode: "plan",
      model: "opus",
      effort: "high",
      project: null,
      preview: true,
      questions: true,
      listenToAll: false,
      loops: true,
      updatedAt: 2_000,
    });
    store.chats.update(5, { model: null, listenToAll: true, loops: false });
    expect(reopen().chats.get(5)).toMatchObject({ mode: "plan", model: null, listenToAll: true, loops: false });
    expect(store.chats.list().map((c) => c.chatId)).toEqual([5]);
  });

  it("refuse to read back a row that was damaged outside Telecode", () => {
    store.chats.update(5, { mode: "plan" });
    store.close();
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare("UPDATE chats SET mode = 'yolo' WHERE chat_id = 5").run();
    db.close();
    store = openStore(dir);
    expect(() => store.chats.get(5)).toThrow(StoreError);
    expect(() => store.chats.get(5)).toThrow(/chats table/);
  });

  it("keep a group's move to a supergroup, once, across a reopen", () => {
    expect(store.chats.moves()).toEqual([]);
    store.chats.recordMove(-42, -100_42);
    store.chats.recordMove(-42, -100_42);
    store.chats.recordMove(-7, -100_7);
    expect(reopen().chats.moves()).toEqual([
      { from: -42, to: -100_42 },
      { from: -7, to: -100_7 },
    ]);
  });

  it("give each forum topic an id of its own, below every Telegram chat id, kept across a reopen", () => {
    const build = store.chats.topic(-100_42, 7, "Build");
    const docs = store.chats.topic(-100_42, 9, null);
    const dm = store.chats.topic(5, 7, null);
    expect(store.chats.topic(-100_42, 7, "ignored")).toEqual(build);
    expect(build).toEqual({ chatId: FIRST_INNER_CHAT_ID - 1, parentChatId: -100_42, threadId: 7, name: "Build" });
    expect([docs.chatId, dm.chatId]).toEqual([FIRST_INNER_CHAT_ID - 2, FIRST_INNER_CHAT_ID - 3]);
    store.chats.nameTopic(docs.chatId, "Docs");
    expect(
      reopen()
        .chats.topics()
        .map((t) => [t.chatId, t.name]),
    ).toEqual([
      [build.chatId, "Build"],
      [docs.chatId, "Docs"],
      [dm.chatId, null],
    ]);
    expect(store.chats.topic(-100_42, 11, null).chatId).toBe(FIRST_INNER_CHAT_ID - 4);
  });

  it("read a topic that never changed anything as its group, and one that did as itself", () => {
    const topic = store.chats.topic(-100_42, 7, null).chatId;
    store.chats.update(-100_42, { project: "web", model: "haiku" });
    expect(store.chats.get(topic)).toMatchObject({ chatId: topic, project: "web", model: "haiku" });
    store.chats.update(-100_42, { model: "opus" });
    expect(store.chats.get(topic).model).toBe("opus");
    store.chats.update(topic, { project: "api" });
    store.chats.update(-100_42, { model: "sonnet" });
    expect(store.chats.get(topic)).toMatchObject({ project: "api", model: "opus" });
    expect(store.chats.get(-100_42)).toMatchObject({ project: "web", model: "sonnet" });
  });

  it("give each group member's conversation an id from the topics' range, read as the group's until it changes", () => {
    const topic = store.chats.topic(-100_42, 7, null);
    const ann = store.chats.memberChat(-100_42, 1001);
    const bob = store.chats.memberChat(-100_42, 1002);
    expect(store.chats.memberChat(-100_42, 1001)).toEqual(ann);
    expect(ann).toEqual({ chatId: FIRST_INNER_CHAT_ID - 2, parentChatId: -100_42, userId: 1001 });
    expect(bob.chatId).toBe(FIRST_INNER_CHAT_ID - 3);
    expect(store.chats.topic(-100_42, 9, null).chatId).toBe(FIRST_INNER_CHAT_ID - 4);
    expect(reopen().chats.memberChatById(ann.chatId)).toEqual(ann);
    expect(store.chats.memberChatById(topic.chatId)).toBeUndefined();
    store.chats.update(-100_42, { model: "haiku" });
    store.chats.update(bob.chatId, { model: "opus" });
    expect([store.chats.get(ann.chatId).model, store.chats.get(bob.chatId).model]).toEqual(["haiku", "opus"]);
  });

  it("keep which conversation each bot message in a group is of, until pruned", () => {
    store.chats.recordGroupMessage(-100_42, 10, FIRST_INNER_CHAT_ID - 1);
    clock = 5_000;
    store.chats.recordGroupMessage(-100_42, 11, -100_42);
    store.chats.recordGroupMessage(-100_43, 10, FIRST_INNER_CHAT_ID - 2);
    expect(reopen().chats.groupMessageChat(-100_42, 10)).toBe(FIRST_INNER_CHAT_ID - 1);
    expect(store.chats.groupMessageChat(-100_42, 11)).toBe(-100_42);
    expect(store.chats.groupMessageChat(-100_42, 12)).toBeUndefined();
    expect(store.chats.pruneGroupMessages(5_000)).toBe(1);
    expect(store.chats.groupMessageChat(-100_42, 10)).toBeUndefined();
    expect(store.chats.groupMessageChat(-100_43, 10)).toBe(FIRST_INNER_CHAT_ID - 2);
  });
});

describe("Claude Code commands", () => {
  it("are kept per project across a reopen, and unknown until first seen", () => {
    expect(store.claudeCommands.get("app")).toBeNull();
    store.claudeCommands.set("app", ["compact", "loop", "compact", "deploy"]);
    expect(reopen().claudeCommands.get("app")).toEqual(["compact", "loop", "deploy"]);
    expect(store.claudeCommands.get("other")).toBeNull();
  });
});

describe("sessions", () => {
  it("make the recorded session current for its chat and project only", () => {
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app", title: "fix the build" });
    store.sessions.record({ sessionId: "other", chatId: 1, project: "web" });
    expect(store.sessions.current(1, "app")).toMatchObject({
      sessionId: "s1",
      title: "fix the build",
      current: true,
      live: false,
      createdAt: 1_000,
    });
    expect(store.sessions.current(1, "web")?.sessionId).toBe("other");
    expect(store.sessions.current(2, "app")).toBeNull();
  });

  it("switch the current session and keep the history, most recent first", () => {
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app" });
    clock = 2_000;
    store.sessions.record({ sessionId: "s2", chatId: 1, project: "app" });
    expect(store.sessions.current(1, "app")?.sessionId).toBe("s2");
    expect(store.sessions.get("s1")?.current).toBe(false);
    clock = 3_000;
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app" });
    expect(store.sessions.current(1, "app")?.sessionId).toBe("s1");
    expect(store.sessions.list(1).map((s) => s.sessionId)).toEqual(["s1", "s2"]);
    expect(store.sessions.list(1, { limit: 1 }).map((s) => s.sessionId)).toEqual(["s1"]);
    expect(store.sessions.list(1, { project: "web" })).toEqual([]);
  });

  it("keep the first title a session was recorded with", () => {
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app", title: "first" });
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app" });
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app", title: "a later request" });
    expect(store.sessions.get("s1")?.title).toBe("first");
    store.sessions.record({ sessionId: "s2", chatId: 1, project: "app" });
    store.sessions.record({ sessionId: "s2", chatId: 1, project: "app", title: "named later" });
    expect(store.sessions.get("s2")?.title).toBe("named later");
  });

  it("start fresh after clearCurrent, and track last use and liveness", () => {
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app" });
    expect(store.sessions.setLive("s1", true)).toBe(true);
    clock = 5_000;
    expect(store.sessions.touch("s1")).toBe(true);
    expect(store.sessions.touch("missing")).toBe(false);
    expect(store.sessions.get("s1")).toMatchObject({ live: true, lastUsedAt: 5_000 });
    store.sessions.clearCurrent(1, "app");
    expect(store.sessions.current(1, "app")).toBeNull();
    expect(store.sessions.markAllNotLive()).toBe(1);
    expect(store.sessions.get("s1")?.live).toBe(false);
  });
});

describe("session costs", () => {
  it("keep each session's last running total across a reopen, unknown until recorded", () => {
    expect(store.sessionCosts.lastTotalUsd("s1")).toBeUndefined();
    store.sessionCosts.recordTotalUsd("s1", 0.0356);
    store.sessionCosts.recordTotalUsd("s1", 0.0364);
    store.sessionCosts.recordTotalUsd("s2", 0);
    reopen();
    expect(store.sessionCosts.lastTotalUsd("s1")).toBe(0.0364);
    expect(store.sessionCosts.lastTotalUsd("s2")).toBe(0);
  });

  it("refuse an amount that is not a cost, and a row damaged outside Telecode", () => {
    expect(() => store.sessionCosts.recordTotalUsd("s1", -1)).toThrow(StoreError);
    expect(() => store.sessionCosts.recordTotalUsd("s1", Number.NaN)).toThrow(StoreError);
    expect(() => store.sessionCosts.recordTotalUsd("", 1)).toThrow(StoreError);
    store.close();
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma("ignore_check_constraints = ON");
    db.prepare("INSERT INTO session_costs (session_id, total_usd, updated_at) VALUES ('bad', -1, 1)").run();
    db.close();
    store = openStore(dir, { now: () => clock });
    expect(() => store.sessionCosts.lastTotalUsd("bad")).toThrow(/session_costs/);
  });
});

describe("runs", () => {
  it("start running and finish exactly once", () => {
    const run = store.runs.start({ runId: "r1", chatId: 1, project: "app", promptMessageId: 10 });
    expect(run).toEqual({
      runId: "r1",
      chatId: 1,
      project: "app",
      sessionId: null,
      state: "running",
      promptMessageId: 10,
      progressMessageId: null,
      startedAt: 1_000,
      endedAt: null,
      costUsd: null,
      outcome: null,
      error: null,
      input: null,
      promptTaken: false,
      keeperId: null,
      startSeq: null,
      lastSeq: null,
      mode: null,
      resumedAt: null,
      promptUuid: null,
      pendingSummary: null,
    });
    expect(store.runs.setSession("r1", "s1")).toBe(true);
    expect(store.runs.setProgressMessage("r1", 11)).toBe(true);
    clock = 4_000;
    expect(store.runs.finish("r1", { state: "completed", costUsd: 0.25, outcome: "success" })).toBe(true);
    expect(store.runs.finish("r1", { state: "failed", error: "late" })).toBe(false);
    expect(store.runs.get("r1")).toMatchObject({
      state: "completed",
      sessionId: "s1",
      progressMessageId: 11,
      endedAt: 4_000,
      costUsd: 0.25,
      outcome: "success",
      error: null,
    });
  });

  it("generate an id when none is given", () => {
    const a = store.runs.start({ chatId: 1, project: "app" });
    const b = store.runs.start({ chatId: 1, project: "app" });
    expect(a.runId).not.toBe(b.runId);
    expect(store.runs.get(a.runId)?.state).toBe("running");
  });

  it("list the runs a restart finds still running and mark them interrupted", () => {
    store.runs.start({ runId: "done", chatId: 1, project: "app" });
    store.runs.finish("done", { state: "completed" });
    store.runs.start({ runId: "r1", chatId: 1, project: "app" });
    clock = 2_000;
    store.runs.start({ runId: "r2", chatId: 2, project: "app" });
    store.runs.setProgressMessage("r2", 99);

    const running = reopen().runs.listRunning();
    expect(running.map((r) => r.runId)).toEqual(["r1", "r2"]);
    clock = 9_000;
    const changed = store.runs.markInterrupted([...running.map((r) => r.runId), "done", "unknown"]);
    expect(changed.map((r) => [r.runId, r.state, r.progressMessageId, r.endedAt])).toEqual([
      ["r1", "interrupted", null, 9_000],
      ["r2", "interrupted", 99, 9_000],
    ]);
    expect(changed[0]?.error).toMatch(/stopped/);
    expect(store.runs.get("done")?.state).toBe("completed");
    expect(store.runs.listRunning()).toEqual([]);
  });

  it("keep a run's input while it may be taken up again: until it ends, and after it was interrupted or failed", () => {
    const input = {
      prompt: [
        { type: "image" as const, mediaType: "image/png" as const, base64: "iVBORw0KGgo=" },
        { type: "text" as const, text: "What is in this picture?" },
      ],
      mode: "plan" as const,
      choice: { kind: "resume" as const, sessionId: "s1" },
    };
    store.runs.start({ runId: "cut", chatId: 1, project: "app", input, progressMessageId: 12 });
    store.runs.start({ runId: "done", chatId: 1, project: "app", input: { ...input, prompt: "Hi" } });
    store.runs.start({ runId: "broke", chatId: 1, project: "app", input: { ...input, prompt: "Again" } });
    expect(store.runs.get("cut")).toMatchObject({ input, promptTaken: false, progressMessageId: 12 });
    expect(store.runs.setTaken("cut", "s2", "7e1ec0de-uuid")).toBe(true);
    expect(store.runs.get("cut")).toMatchObject({ promptTaken: true, sessionId: "s2", promptUuid: "7e1ec0de-uuid" });
    clock = 2_000;
    store.runs.finish("done", { state: "completed" });
    store.runs.finish("broke", { state: "failed", error: "gone" });
    store.runs.markInterrupted(["cut"]);
    expect(reopen().runs.get("done")?.input).toBeNull();
    expect(store.runs.get("cut")?.input).toEqual(input);
    expect(store.runs.get("broke")?.input).toEqual({ ...input, prompt: "Again" });
    expect(store.runs.forgetInputs(2_001)).toBe(2);
    expect(store.runs.get("cut")?.input).toBeNull();
    expect(store.runs.get("broke")?.input).toBeNull();
  });

  it("keep a finished run's summary until it is shown, and list only those with a progress message", () => {
    store.runs.start({ runId: "shown", chatId: 1, project: "app", progressMessageId: 5 });
    store.runs.start({ runId: "kept", chatId: 1, project: "app", progressMessageId: 6 });
    store.runs.start({ runId: "quiet", chatId: 1, project: "app" });
    for (const runId of ["shown", "kept", "quiet"]) {
      store.runs.finish(runId, { state: "completed" });
      expect(store.runs.setPendingSummary(runId, `{"html":"${runId}"}`)).toBe(true);
    }
    expect(store.runs.setPendingSummary("shown", null)).toBe(true);
    expect(store.runs.setPendingSummary("never", "x")).toBe(false);
    expect(
      reopen()
        .runs.listPendingSummaries()
        .map((r) => [r.runId, r.pendingSummary]),
    ).toEqual([["kept", '{"html":"kept"}']]);
  });

  it("spend an interrupted or failed run's taking-up once, across a reopen, and no other run's", () => {
    store.runs.start({ runId: "cut", chatId: 1, project: "app" });
    store.runs.start({ runId: "live", chatId: 1, project: "app" });
    store.runs.start({ runId: "broke", chatId: 1, project: "app" });
    store.runs.start({ runId: "fine", chatId: 1, project: "app" });
    store.runs.finish("broke", { state: "failed", error: "gone" });
    store.runs.finish("fine", { state: "completed" });
    expect(store.runs.claimResume("cut")).toBe(false);
    store.runs.markInterrupted(["cut"]);
    expect(store.runs.get("cut")?.resumedAt).toBeNull();
    clock = 5_000;
    expect(store.runs.claimResume("cut")).toBe(true);
    expect(store.runs.claimResume("cut")).toBe(false);
    expect(reopen().runs.claimResume("cut")).toBe(false);
    expect(store.runs.get("cut")?.resumedAt).toBe(5_000);
    expect(store.runs.claimResume("live")).toBe(false);
    expect(store.runs.claimResume("unknown")).toBe(false);
    expect(store.runs.claimResume("fine")).toBe(false);
    expect(store.runs.claimResume("broke")).toBe(true);
    expect(reopen().runs.claimResume("broke")).toBe(false);
  });

  it("delete the runs that ended before a time, their decisions with them, never a running one", () => {
    store.runs.start({ runId: "old", chatId: 1, project: "app" });
    store.decisions.add({ decisionId: "d-old", chatId: 1, runId: "old", kind: "approval", requestId: "q1" });
    store.runs.start({ runId: "still", chatId: 1, project: "app" });
    store.runs.start({ runId: "cut", chatId: 1, project: "app" });
    clock = 2_000;
    store.runs.finish("old", { state: "completed" });
    store.runs.markInterrupted(["cut"]);
    clock = 9_000;
    store.runs.start({ runId: "new", chatId: 1, project: "app" });
    store.runs.finish("new", { state: "failed" });

    expect(store.runs.pruneEnded(2_001)).toBe(2);
    expect(["old", "still", "cut", "new"].map((id) => store.runs.get(id)?.state ?? null)).toEqual([
      null,
      "running",
      null,
      "failed",
    ]);
    expect(store.decisions.get("d-old")).toBeNull();
    expect(store.runs.pruneEnded(2_001)).toBe(0);
  });

  it("refuse to read back an input that is not a run's input", () => {
    store.runs.start({ runId: "r1", chatId: 1, project: "app" });
    store.close();
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare(
      `UPDATE runs SET input = '{"prompt":"x","mode":"yolo","choice":{"kind":"new"}}' WHERE run_id = 'r1'`,
    ).run();
    db.close();
    store = openStore(dir);
    expect(() => store.runs.get("r1")).toThrow(/runs table/);
  });

  it("list a chat's recent runs newest first", () => {
    for (const id of ["a", "b", "c"]) {
      clock += 1;
      store.runs.start({ runId: id, chatId: 1, project: "app" });
    }
    store.runs.start({ runId: "elsewhere", chatId: 2, project: "app" });
    expect(store.runs.recent(1, 2).map((r) => r.runId)).toEqual(["c", "b"]);
  });

  it("find the latest run a chat's message started, in that chat only", () => {
    store.runs.start({ runId: "first", chatId: 1, project: "app", promptMessageId: 7 });
    clock += 1;
    store.runs.start({ runId: "again", chatId: 1, project: "app", promptMessageId: 7 });
    store.runs.start({ runId: "other-chat", chatId: 2, project: "app", promptMessageId: 8 });
    expect(store.runs.startedBy(1, 7)?.runId).toBe("again");
    expect(store.runs.startedBy(1, 8)).toBeNull();
    expect(store.runs.startedBy(2, 8)?.runId).toBe("other-chat");
  });
});

describe("decisions", () => {
  beforeEach(() => {
    store.runs.start({ runId: "r1", chatId: 1, project: "app" });
  });

  it("resolve a pending decision once; a second tap changes nothing", () => {
    const d = store.decisions.add({ decisionId: "d1", chatId: 1, runId: "r1", kind: "approval", requestId: "req-1" });
    expect(d).toMatchObject({ state: "pending", messageId: null, createdAt: 1_000, resolvedAt: null });
    expect(store.decisions.setMessage("d1", 50)).toBe(true);
    clock = 3_000;
    expect(store.decisions.resolve("d1", "approved", { summary: "Allowed", by: "Ann" })).toBe(true);
    expect(store.decisions.resolve("d1", "denied", { summary: "Denied", by: "Bob" })).toBe(false);
    expect(store.decisions.get("d1")).toMatchObject({
      state: "approved",
      messageId: 50,
      resolvedAt: 3_000,
      outcomeSummary: "Allowed",
      decidedBy: "Ann",
    });
    expect(store.decisions.byRequest("r1", "req-1")?.decisionId).toBe("d1");
    expect(store.decisions.byRequest("r1", "other")).toBeNull();
  });

  it("refuse a second decision for the same request of the same run", () => {
    store.decisions.add({ chatId: 1, runId: "r1", kind: "approval", requestId: "req-1" });
    expect(() => store.decisions.add({ chatId: 1, runId: "r1", kind: "approval", requestId: "req-1" })).toThrow(
      /UNIQUE/,
    );
  });

  it("refuse a decision for a run that does not exist", () => {
    expect(() => store.decisions.add({ chatId: 1, runId: "nope", kind: "question", requestId: "q" })).toThrow(
      /FOREIGN KEY/,
    );
  });

  it("list pending ones per chat and expire them all after a restart, with their message ids", () => {
    store.runs.start({ runId: "r2", chatId: 2, project: "app" });
    store.decisions.add({ decisionId: "a", chatId: 1, runId: "r1", kind: "approval", requestId: "1", messageId: 7 });
    store.decisions.add({ decisionId: "b", chatId: 2, runId: "r2", kind: "question", requestId: "2", messageId: 8 });
    store.decisions.add({ decisionId: "c", chatId: 1, runId: "r1", kind: "plan", requestId: "3" });
    store.decisions.resolve("c", "withdrawn");
    expect(store.decisions.get("c")).toMatchObject({ outcomeSummary: null, decidedBy: null });
    expect(store.decisions.listPending(1).map((d) => d.decisionId)).toEqual(["a"]);

    clock = 6_000;
    const expired = reopen().decisions.expireAll();
    expect(expired.map((d) => [d.decisionId, d.messageId, d.state, d.resolvedAt])).toEqual([
      ["a", 7, "expired", 6_000],
      ["b", 8, "expired", 6_000],
    ]);
    expect(store.decisions.listPending()).toEqual([]);
    expect(store.decisions.get("a")?.state).toBe("expired");
    expect(store.decisions.resolve("a", "approved")).toBe(false);
  });
});

describe("decision messages", () => {
  beforeEach(() => {
    store.runs.start({ runId: "r1", chatId: 1, project: "app" });
  });

  it("list the ones whose message does not show the recorded state until it is shown", () => {
    store.decisions.add({ decisionId: "shown", chatId: 1, runId: "r1", kind: "approval", requestId: "1" });
    store.decisions.add({ decisionId: "lost", chatId: 1, runId: "r1", kind: "approval", requestId: "2" });
    store.decisions.add({ decisionId: "no-message", chatId: 1, runId: "r1", kind: "plan", requestId: "3" });
    expect(store.decisions.setMessage("shown", 40, "<b>🔐 Run a command</b>")).toBe(true);
    store.decisions.setMessage("lost", 41, "<b>🔐 Write a file</b>");
    store.decisions.setMessageHtml("lost", "<b>🔐 Write a file, again</b>");
    expect(store.decisions.listUnshown()).toEqual([]);
    store.decisions.resolve("shown", "denied");
    store.decisions.resolve("lost", "approved");
    store.decisions.resolve("no-message", "approved");
    expect(store.decisions.markShown("shown")).toBe(true);
    expect(
      reopen()
        .decisions.listUnshown()
        .map((d) => [d.decisionId, d.state, d.shownState, d.messageHtml]),
    ).toEqual([["lost", "approved", "pending", "<b>🔐 Write a file, again</b>"]]);
    store.decisions.markShown("lost");
    expect(store.decisions.listUnshown()).toEqual([]);
  });
});

describe("queued runs", () => {
  const input = { prompt: "Then do this", mode: "default" as const, choice: { kind: "current" as const } };

  it("keep waiting requests in the order they came, until one caller takes each", () => {
    expect(store.queuedRuns.add({ runId: "b", chatId: 1, project: "app", input, queuedAt: 20 })).toBe(true);
    expect(
      store.queuedRuns.add({ runId: "a", chatId: 1, project: "app", input, promptMessageId: 5, queuedAt: 10 }),
    ).toBe(true);
    expect(store.queuedRuns.add({ runId: "a", chatId: 1, project: "app", input, queuedAt: 99 })).toBe(false);
    expect(store.queuedRuns.setMessage("a", 6)).toBe(true);
    expect(store.queuedRuns.setMessage("nope", 6)).toBe(false);
    expect(
      reopen()
        .queuedRuns.listWaiting()
        .map((r) => [r.runId, r.queuedAt, r.promptMessageId, r.messageId]),
    ).toEqual([
      ["a", 10, 5, 6],
      ["b", 20, null, null],
    ]);
    expect(store.queuedRuns.take("a")).toMatchObject({ runId: "a", input, state: "waiting" });
    expect(store.queuedRuns.take("a")).toBeNull();
  });

  it("take an edited request's new input while it waits, and not once it was taken or dropped", () => {
    store.queuedRuns.add({ runId: "q", chatId: 1, project: "app", input, queuedAt: 10 });
    const edited = { ...input, prompt: "Then do that" };
    expect(store.queuedRuns.setInput("q", edited)).toBe(true);
    expect(reopen().queuedRuns.get("q")?.input).toEqual(edited);
    expect(store.queuedRuns.markDropped("q")).toBe(true);
    expect(store.queuedRuns.setInput("q", input)).toBe(false);
    expect(store.queuedRuns.setInput("nope", input)).toBe(false);
  });

  it("keep a dropped request for Retry, out of the waiting list, until it is pruned", () => {
    store.queuedRuns.add({ runId: "old", chatId: 1, project: "app", input, queuedAt: 10 });
    store.queuedRuns.add({ runId: "new", chatId: 1, project: "app", input, queuedAt: 500 });
    expect(store.queuedRuns.markDropped("old")).toBe(true);
    expect(store.queuedRuns.markDropped("old")).toBe(false);
    expect(store.queuedRuns.listWaiting().map((r) => r.runId)).toEqual(["new"]);
    expect(store.queuedRuns.get("old")?.state).toBe("dropped");
    expect(store.queuedRuns.pruneDropped(100)).toBe(1);
    expect(store.queuedRuns.get("old")).toBeNull();
    expect(store.queuedRuns.get("new")?.state).toBe("waiting");
  });
});

describe("offsets", () => {
  it("remember the update offset across a reopen, per source", () => {
    expect(store.offsets.get()).toBeNull();
    store.offsets.set(100);
    store.offsets.set(7, "other");
    store.offsets.set(101);
    expect(reopen().offsets.get()).toBe(101);
    expect(store.offsets.get("telegram")).toBe(101);
    expect(store.offsets.get("other")).toBe(7);
    expect(() => store.offsets.set(1.5)).toThrow(StoreError);
  });
});

describe("inbox", () => {
  it("keeps updates until they are done, and counts each start that finds one unfinished", () => {
    const text = { update_id: 7, message: { message_id: 1, text: "hi" } };
    store.inbox.keep([text, { update_id: 8, callback_query: { id: "q" } }]);
    store.inbox.keep([{ update_id: 7, message: { message_id: 1, text: "changed" } }]);
    store.inbox.done(8);
    clock = 2_000;
    expect(reopen().inbox.unfinished()).toEqual([{ updateId: 7, update: text, takenAt: 1_000, attempts: 0 }]);
    expect(reopen().inbox.unfinished()).toEqual([{ updateId: 7, update: text, takenAt: 1_000, attempts: 1 }]);
    store.inbox.done(7);
    expect(store.inbox.unfinished()).toEqual([]);
  });
});

describe("usage", () => {
  it("keeps each usage limit's latest report, in the order the limits came first", () => {
    expect(store.usage.limits()).toEqual([]);
    const fiveHour = {
      type: "usage_limit",
      limit: "5h",
      state: "warning",
      usedPercent: 91,
      extraUsage: false,
    } as const;
    store.usage.saveLimit({ ...fiveHour, resetsAtMs: 5_000 }, 1_000);
    store.usage.saveLimit({ type: "usage_limit", limit: "7-day", state: "ok", extraUsage: false }, 1_000);
    store.usage.saveLimit({ ...fiveHour, state: "reached", usedPercent: 100, extraUsage: true }, 2_000);
    expect(reopen().usage.limits()).toEqual([
      { type: "usage_limit", limit: "5h", state: "reached", usedPercent: 100, extraUsage: true },
      { type: "usage_limit", limit: "7-day", state: "ok", extraUsage: false },
    ]);
  });

  it("add cost and a run per day and read days back in order", () => {
    expect(store.usage.forDay("2030-01-01")).toEqual({ day: "2030-01-01", costUsd: 0, runs: 0 });
    store.usage.add("2030-01-02", 0.5);
    expect(store.usage.add("2030-01-02", 0.25)).toEqual({ day: "2030-01-02", costUsd: 0.75, runs: 2 });
    store.usage.add("2030-01-01", 0);
    store.usage.add("2030-02-01", 1);
    expect(store.usage.between("2030-01-01", "2030-01-31")).toEqual([
      { day: "2030-01-01", costUsd: 0, runs: 1 },
      { day: "2030-01-02", costUsd: 0.75, runs: 2 },
    ]);
  });

  it("add a run's cost to its chat's day too, when the chat is named", () => {
    store.usage.add("2030-01-02", 0.5, 7);
    store.usage.add("2030-01-02", 0.25, 7);
    store.usage.add("2030-01-02", 2, 8);
    store.usage.add("2030-01-03", 1, 7);
    store.usage.add("2030-01-02", 4);
    expect(store.usage.forChatDay(7, "2030-01-02")).toBeCloseTo(0.75);
    expect(store.usage.forChatDay(8, "2030-01-02")).toBe(2);
    expect(store.usage.forChatDay(9, "2030-01-02")).toBe(0);
    expect(store.usage.forDay("2030-01-02").costUsd).toBeCloseTo(6.75);
    expect(reopen().usage.forChatDay(7, "2030-01-03")).toBe(1);
  });

  it("refuse a malformed day or a negative cost", () => {
    expect(() => store.usage.add("2030-1-2", 1)).toThrow(/YYYY-MM-DD/);
    expect(() => store.usage.add("2030-01-02", -1)).toThrow(StoreError);
    expect(() => store.usage.forDay("today")).toThrow(StoreError);
  });
});

describe("transactions", () => {
  it("apply all writes of a failing transaction or none", () => {
    expect(() =>
      store.transaction(() => {
        store.runs.start({ runId: "r1", chatId: 1, project: "app" });
        store.usage.add("2030-01-01", 1);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(store.runs.get("r1")).toBeNull();
    expect(store.usage.forDay("2030-01-01").runs).toBe(0);
    const value = store.transaction(() => {
      store.runs.start({ runId: "r2", chatId: 1, project: "app" });
      return store.usage.add("2030-01-01", 1).runs;
    });
    expect(value).toBe(1);
    expect(store.runs.get("r2")).not.toBeNull();
  });
});

describe("recoverAfterRestart", () => {
  it("interrupts running runs, expires pending decisions and detaches sessions in one step", () => {
    store.sessions.record({ sessionId: "s1", chatId: 1, project: "app" });
    store.sessions.setLive("s1", true);
    store.runs.start({ runId: "r1", chatId: 1, project: "app", sessionId: "s1" });
    store.runs.setProgressMessage("r1", 70);
    store.runs.start({ runId: "done", chatId: 1, project: "app" });
    store.runs.finish("done", { state: "completed" });
    store.decisions.add({ decisionId: "d1", chatId: 1, runId: "r1", kind: "approval", requestId: "q1", messageId: 71 });

    clock = 50_000;
    const recovered = reopen().recoverAfterRestart();
    expect(recovered.interruptedRuns.map((r) => [r.runId, r.progressMessageId, r.sessionId, r.state])).toEqual([
      ["r1", 70, "s1", "interrupted"],
    ]);
    expect(recovered.expiredDecisions.map((d) => [d.decisionId, d.messageId])).toEqual([["d1", 71]]);
    expect(recovered.sessionsDetached).toBe(1);
    // The session stays current, so "continue" resumes it.
    expect(store.sessions.current(1, "app")).toMatchObject({ sessionId: "s1", live: false });
    expect(store.recoverAfterRestart()).toEqual({ interruptedRuns: [], expiredDecisions: [], sessionsDetached: 0 });
  });
});

describe("kept runs", () => {
  it("a restart leaves the runs taken in again, and their decisions, as they are", () => {
    store.runs.start({ runId: "kept", chatId: 1, project: "app" });
    store.runs.setKept("kept", { keeperId: "k1", startSeq: 12, mode: "default" });
    store.runs.start({ runId: "cut", chatId: 1, project: "app" });
    store.decisions.add({
      decisionId: "dk",
      chatId: 1,
      runId: "kept",
      kind: "approval",
      requestId: "q1",
      messageId: 5,
    });
    store.decisions.add({ decisionId: "dc", chatId: 1, runId: "cut", kind: "approval", requestId: "q2", messageId: 6 });

    const recovered = reopen().recoverAfterRestart("stopped", new Set(["kept"]));
    expect(recovered.interruptedRuns.map((r) => r.runId)).toEqual(["cut"]);
    expect(recovered.expiredDecisions.map((d) => d.decisionId)).toEqual(["dc"]);
    expect(store.runs.get("kept")).toMatchObject({ state: "running", keeperId: "k1", startSeq: 12, lastSeq: 12 });
    expect(store.decisions.get("dk")?.state).toBe("pending");
  });

  it("record how far a kept run's output was processed, only ever forward", () => {
    store.runs.start({ runId: "r1", chatId: 1, project: "app" });
    store.runs.setKept("r1", { keeperId: "k1", startSeq: 3, mode: "plan" });
    expect(store.runs.setLastSeq("r1", 40)).toBe(true);
    expect(store.runs.setLastSeq("r1", 20)).toBe(false);
    expect(store.runs.get("r1")).toMatchObject({ startSeq: 3, lastSeq: 40, mode: "plan" });
  });

  it("keep a decision's button token with its message, so a restart can make its buttons work again", () => {
    store.runs.start({ runId: "r1", chatId: 1, project: "app" });
    store.decisions.add({ decisionId: "d1", chatId: 1, runId: "r1", kind: "approval", requestId: "q1" });
    store.decisions.setMessage("d1", 77, "<b>🔐 Run a command</b>", "A".repeat(22));
    expect(reopen().decisions.get("d1")).toMatchObject({
      messageId: 77,
      messageHtml: "<b>🔐 Run a command</b>",
      callbackToken: "A".repeat(22),
    });
  });

  it("count fences up across opens", () => {
    expect(store.counters.next("keeper_fence")).toBe(1);
    expect(store.counters.next("keeper_fence")).toBe(2);
    expect(reopen().counters.next("keeper_fence")).toBe(3);
  });
});
