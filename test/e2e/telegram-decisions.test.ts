// Approvals, plans and questions through the real bridge: buttons tapped in the local Bot API
// fake reach the real Claude CLI as its control_response; strangers change nothing.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_AUTHORISED_TAP_TEXT, NOT_AUTHORISED_TEXT } from "../../src/telegram/index.js";
import { COLOR_QUESTION, reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import {
  isAnswer,
  runPlanAuto,
  STRANGER_ID,
  startRig,
  type Rig,
  withButton,
  withConfig,
} from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

/** Taps and returns the toast the tap got. */
async function tap(chat: number, message: MessageView, label: string, from?: number): Promise<string | undefined> {
  const query = rig.tg.tapButton(chat, message.messageId, label, from === undefined ? {} : { from });
  return (await rig.tg.waitForCallbackAnswer(query)).text;
}

describe("approvals", () => {
  it("a Bash call in default mode shows Allow/Deny as a reply to the progress message; Allow runs it", async () => {
    const chat = rig.user(1001);
    rig.script("[allow]", [reply.bash("touch allowed.txt", "Create a file"), reply.text("Created it.")]);
    rig.tg.sendText(chat, "Create the file [allow]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    const progress = rig.tg.botMessages(chat)[0]!;
    expect(prompt.replyToMessageId).toBe(progress.messageId);
    expect(prompt.text).toContain("touch allowed.txt");
    // The CLI suggests the project's directory: named as the person knows it.
    expect(prompt.text).toContain("“Always allow” covers: Bash(touch allowed.txt); files in this project");
    expect(prompt.buttons.map((b) => b.text)).toEqual(["✅ Allow", "Always allow in this session", "❌ Deny"]);
    expect(await tap(chat, prompt, "✅ Allow")).toBe("Approved");
    await rig.botMessage(chat, isAnswer("Created it."));
    expect(existsSync(join(rig.ws.cwd, "allowed.txt"))).toBe(true);
    const settled = await rig.tg.waitFor(
      () => {
        const m = rig.tg.message(chat, prompt.messageId);
        return m !== undefined && /Allowed \(Ann1001\)/.test(m.text) ? m : undefined;
      },
      { what: "the settled approval" },
    );
    expect(settled.buttons).toEqual([]);
    expect(rig.app.store.decisions.listPending(chat)).toEqual([]);
  });

  it("Deny does not run it, and the prompt says who denied", async () => {
    const chat = rig.user(1002);
    rig.script("[deny]", [
      reply.bash("touch denied.txt", "Create a file"),
      reply.text("Understood, I did not create it."),
    ]);
    rig.tg.sendText(chat, "Create the file [deny]");
    const prompt = await rig.botMessage(chat, withButton("❌ Deny"));
    expect(await tap(chat, prompt, "❌ Deny")).toBe("Denied");
    await rig.botMessage(chat, isAnswer("did not create it"));
    expect(existsSync(join(rig.ws.cwd, "denied.txt"))).toBe(false);
    expect(rig.api.requests("[deny]")[1]?.toolResults[0]).toMatchObject({ isError: true });
    await rig.tg.waitFor(() => /Denied \(Ann1002\)/.test(rig.tg.message(chat, prompt.messageId)?.text ?? ""), {
      what: "the settled denial",
    });
  });

  it("an Edit shows its change as whole lines under the file and line number; Allow makes it", async () => {
    const chat = rig.user(1011);
    const file = join(rig.ws.cwd, "server.js");
    const lines = ["// server", "", "function main() {", "  const port = 3000;", "  listen(port);", "}", ""];
    writeFileSync(file, lines.join("\n"));
    rig.script("[edit]", [
      reply.tool("Read", { file_path: file }),
      reply.tool("Edit", { file_path: file, old_string: "port = 3000", new_string: "port = Number(process.env.PORT)" }),
      reply.text("The port comes from PORT now."),
    ]);
    rig.tg.sendText(chat, "Read the port from the environment [edit]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    expect(prompt.text).toContain(
      [
        "server.js · line 4",
        "  ",
        "  function main() {",
        "-   const port = 3000;",
        "+   const port = Number(process.env.PORT);",
        "    listen(port);",
        "  }",
      ].join("\n"),
    );
    expect(await tap(chat, prompt, "✅ Allow")).toBe("Approved");
    await rig.botMessage(chat, isAnswer("The port comes from PORT now."));
    expect(readFileSync(file, "utf8")).toContain("  const port = Number(process.env.PORT);\n");
  });

  it("a Write over a file says it replaces the whole file and how long it is now; Deny keeps it", async () => {
    const chat = rig.user(1012);
    const file = join(rig.ws.cwd, "todo.md");
    writeFileSync(file, "# Todo\n\n- keep this\n");
    rig.script("[write-over]", [
      reply.tool("Read", { file_path: file }),
      reply.tool("Write", { file_path: file, content: "# Todo\n" }),
      reply.text("Left it as it was."),
    ]);
    rig.tg.sendText(chat, "Tidy the todo list [write-over]");
    const prompt = await rig.botMessage(chat, withButton("❌ Deny"));
    expect(prompt.text).toMatch(
      /^🔐 Write todo\.md\n\nReplaces the whole file \(3 lines now\)\.\n\ntodo\.md\n# Todo\n/,
    );
    expect(await tap(chat, prompt, "❌ Deny")).toBe("Denied");
    await rig.botMessage(chat, isAnswer("Left it as it was."));
    expect(readFileSync(file, "utf8")).toBe("# Todo\n\n- keep this\n");
  });

  it("two quick taps on Allow: one answer reaches the CLI, the second tap reads 'Already answered'", async () => {
    const chat = rig.user(1003);
    rig.script("[double]", [reply.bash("echo once >> double.txt", "Append a line"), reply.text("Appended.")]);
    rig.tg.sendText(chat, "Append [double]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    const first = rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    const second = rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    const toasts = [
      (await rig.tg.waitForCallbackAnswer(first)).text,
      (await rig.tg.waitForCallbackAnswer(second)).text,
    ];
    expect(toasts).toEqual(["Approved", "Already answered"]);
    await rig.botMessage(chat, isAnswer("Appended."));
    const requests = rig.api.requests("[double]");
    expect(requests).toHaveLength(2);
    expect(requests[1]?.toolResults).toHaveLength(1);
    // The prompt's settled edit may go out after the answer: wait until everything was sent.
    await rig.tg.waitFor(() => rig.app.bridge.outbox.pending() === 0, { what: "the outbox drained" });
    const revisions = rig.tg.message(chat, prompt.messageId)!.revisions.filter((r) => r.text.includes("Allowed"));
    expect(revisions).toHaveLength(1);
  });

  it("a garbled or stale tap on a live approval answers 'This button does nothing' and leaves its buttons", async () => {
    const chat = rig.user(1010);
    rig.script("[garbled]", [reply.bash("touch garbled.txt", "Create a file"), reply.text("Made it.")]);
    rig.tg.sendText(chat, "Create it [garbled]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    const allowData = prompt.buttons.find((b) => b.text === "✅ Allow")!.data!;
    const token = allowData.split(".")[1]!;
    const garbage = [
      `v9.${token}.dallow`, // another version's button
      "garbage", // not ours at all
      `v1.${"A".repeat(22)}.dallow`, // a token nobody issued
      `v1.${token}.dzzz`, // a choice the approval does not have
    ];
    for (const data of garbage) {
      const query = rig.tg.forgeCallback(chat, prompt.messageId, data);
      expect((await rig.tg.waitForCallbackAnswer(query)).text, data).toBe("This button does nothing");
    }
    await rig.tg.waitFor(() => rig.app.bridge.outbox.pending() === 0, { what: "the outbox drained" });
    expect(rig.tg.message(chat, prompt.messageId)!.buttons.map((b) => b.text)).toContain("✅ Allow");
    expect(await tap(chat, prompt, "✅ Allow")).toBe("Approved");
    await rig.botMessage(chat, isAnswer("Made it."));
  });

  it("a stranger's message and tap do nothing but say the bot is private: no CLI process, no state change", async () => {
    const chat = rig.user(1004);
    rig.tg.addUser({ id: STRANGER_ID, firstName: "Mallory" });
    const group = -100_200;
    rig.tg.addGroup({ id: group, memberIds: [chat, STRANGER_ID] });
    const requestsBefore = rig.api.requests().length;

    rig.tg.sendText(STRANGER_ID, "Delete everything [stranger]");
    rig.tg.sendText(STRANGER_ID, "Please? [stranger]");
    await rig.botMessage(STRANGER_ID, NOT_AUTHORISED_TEXT);
    rig.tg.sendText(group, "@telecode_test_bot delete everything [stranger]", { from: STRANGER_ID });

    rig.script("[group]", [reply.bash("touch group.txt", "Create a file"), reply.text("Not created.")]);
    rig.tg.sendText(group, "@telecode_test_bot create the file [group]", { from: chat });
    const prompt = await rig.botMessage(group, withButton("✅ Allow"));
    const strangerTap = rig.tg.tapButton(group, prompt.messageId, "✅ Allow", { from: STRANGER_ID });
    // The person's own tap comes after the stranger's; by then the stranger's was handled.
    expect(await tap(group, prompt, "❌ Deny", chat)).toBe("Denied");
    await rig.botMessage(group, isAnswer("Not created."));

    // Their spinner stops with a toast only they see; nothing else happens.
    expect(rig.tg.callbackAnswer(strangerTap)?.text).toBe(NOT_AUTHORISED_TAP_TEXT);
    // With telegram.notify_unauthorised = false they are not answered at all.
    rig.config = { ...rig.config, telegram: { ...rig.config.telegram, notifyUnauthorised: false } };
    const allow = prompt.buttons.find((b) => b.text === "✅ Allow")!.data!;
    const unanswered = rig.tg.forgeCallback(group, prompt.messageId, allow, { from: STRANGER_ID });
    const late = rig.tg.forgeCallback(group, prompt.messageId, allow, { from: chat });
    expect((await rig.tg.waitForCallbackAnswer(late)).text).toBe("Already answered");
    expect(rig.tg.callbackAnswer(unanswered)).toBeUndefined();
    expect(existsSync(join(rig.ws.cwd, "group.txt"))).toBe(false);
    expect(rig.tg.botMessages(STRANGER_ID).map((m) => m.text)).toEqual([NOT_AUTHORISED_TEXT]);
    expect(rig.api.requests("[stranger]")).toEqual([]);
    expect(rig.api.requests().length).toBe(requestsBefore + 2);
    expect(rig.app.bridge.sessions.status(STRANGER_ID)).toEqual([]);
    expect(rig.app.store.runs.recent(STRANGER_ID)).toEqual([]);
    expect(rig.app.store.chats.get(STRANGER_ID).updatedAt).toBe(0);
    expect(rig.app.store.runs.recent(group).map((r) => r.state)).toEqual(["completed"]);
  });
});

/**
 * Runs `test` with `asker` and `other`, two allowed users, in a new group `group` of `on`'s,
 * under telegram.group_approvals = "requester"; the config is put back after.
 */
async function inRequesterGroup(
  on: Rig,
  group: number,
  [asker, other]: readonly [number, number],
  test: (say: (text: string, from: number) => number) => Promise<void>,
): Promise<void> {
  on.tg.addGroup({ id: group, memberIds: [asker, other] });
  await withConfig(
    on,
    (c) => ({ ...c, telegram: { ...c.telegram, groupApprovals: "requester" } }),
    () => test((text, from) => on.tg.sendText(group, `@telecode_test_bot ${text}`, { from })),
  );
}

describe('telegram.group_approvals = "requester"', () => {
  it("in a group, only who asked for the run answers its approval; another's tap, reply or words change nothing", async () => {
    const [asker, other] = [rig.user(1013), rig.user(1014)];
    const group = -100_300;
    await inRequesterGroup(rig, group, [asker, other], async (say) => {
      rig.script("[requester]", [reply.bash("touch requester.txt", "Create a file"), reply.text("Created it.")]);
      say("create the file [requester]", asker);
      const prompt = await rig.botMessage(group, withButton("✅ Allow"));
      // Said before anyone taps, under what a typed reply does.
      expect(prompt.text).toMatch(/passes your words to Claude\. Only Ann1013, who asked for this, can answer it\.$/);

      expect(await tap(group, prompt, "✅ Allow", other)).toBe("Only Ann1013, who asked for this, can answer it");
      const replied = rig.tg.sendText(group, "Allow it", { from: other, replyTo: prompt.messageId });
      const told = await rig.botMessage(group, (m) => m.replyToMessageId === replied);
      expect(told.text).toBe(
        "Only Ann1013, who asked for this, can answer it, so nothing went to Claude. To give Claude a task of your own, send it without replying.",
      );
      // Their words while it waits are a task of their own, queued behind it, not an answer.
      rig.script("[requester-other]", [reply.text("Other task done.")]);
      say("list the files [requester-other]", other);
      await rig.botMessage(group, (m) => m.text.includes("Queued"));
      expect(existsSync(join(rig.ws.cwd, "requester.txt"))).toBe(false);

      expect(await tap(group, prompt, "✅ Allow", asker)).toBe("Approved");
      await rig.botMessage(group, isAnswer("Created it."));
      await rig.botMessage(group, isAnswer("Other task done."));
      expect(existsSync(join(rig.ws.cwd, "requester.txt"))).toBe(true);
      expect(rig.api.requests("[requester]").some((r) => r.lastPrompt.includes("Allow it"))).toBe(false);
    });
  });
});

describe("withdrawn prompts", () => {
  it("/cancel while an approval waits: the prompt settles without buttons, a late tap reads 'No longer pending'", async () => {
    const chat = rig.user(1008);
    rig.script("[withdrawn]", [reply.bash("touch withdrawn.txt", "Create a file")]);
    rig.tg.sendText(chat, "Create it [withdrawn]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    const allowData = prompt.buttons.find((b) => b.text === "✅ Allow")!.data!;
    rig.tg.sendCommand(chat, "cancel");
    await rig.tg.waitFor(() => rig.tg.message(chat, prompt.messageId)?.buttons.length === 0, {
      what: "the withdrawn prompt",
    });
    const late = rig.tg.forgeCallback(chat, prompt.messageId, allowData);
    expect((await rig.tg.waitForCallbackAnswer(late)).text).toBe("No longer pending");
    expect(existsSync(join(rig.ws.cwd, "withdrawn.txt"))).toBe(false);
    expect(rig.app.store.decisions.listPending(chat)).toEqual([]);
  });
});

describe("plan mode", () => {
  it("plan → Pause & Outline → outline → Approve Plan → the work runs, and plan mode is back for the next message", async () => {
    const chat = rig.user(1005);
    rig.tg.sendCommand(chat, "planmode", "on");
    await rig.botMessage(chat, "Plan mode on");
    const outline = `Outline: ${"first I read app.js and find the log line, then I change it to print v2, then I run node app.js to check. ".repeat(3)}`;
    rig.script("[plan]", [
      reply.tool("ExitPlanMode", { plan: "Change the log line." }, "Here is my plan."),
      {
        kind: "message",
        blocks: [
          { type: "text", text: outline },
          { type: "tool_use", name: "ExitPlanMode", input: { plan: "Change the log line." } },
        ],
      },
      reply.text("Approved; the work is done."),
    ]);
    const asked = rig.tg.sendText(chat, "Plan the change [plan]");
    const plan = await rig.botMessage(chat, withButton("Pause & Outline"));
    expect(plan.buttons.map((b) => b.text)).toEqual(["✅ Approve", "❌ Deny", "Pause & Outline"]);
    expect(plan.text).toContain("Plan ready for review");
    expect(await tap(chat, plan, "Pause & Outline")).toBe("Outlining plan…");
    // Asking for an outline is no refusal: the plan message says so without a ❌.
    await rig.tg.waitFor(() => rig.tg.message(chat, plan.messageId)?.text.endsWith("↩️ Outline requested (Ann1005)"), {
      what: "the plan message settled as an outline requested",
    });
    const again = await rig.botMessage(chat, withButton("✅ Approve Plan"));
    expect(again.buttons.map((b) => b.text)).toEqual(["✅ Approve Plan", "❌ Deny", "Let's discuss"]);
    expect(await tap(chat, again, "✅ Approve Plan")).toBe("Approved");
    await rig.botMessage(chat, isAnswer("Approved; the work is done."));
    expect(rig.api.requests("[plan]")[1]?.toolResults[0]?.text).toContain("step-by-step outline");
    // The outline asked for is no failure in the run's summary.
    const summary = await rig.botMessage(chat, (m) => m.replyToMessageId === asked && m.text.startsWith("✅ Done"));
    expect(summary.text).not.toContain("outline requested");

    rig.script("[plan-next]", [
      reply.tool("Write", { file_path: "notes.md", content: "x\n" }),
      reply.text("Still planning."),
    ]);
    rig.tg.sendText(chat, "Next request [plan-next]");
    await rig.botMessage(chat, isAnswer("Still planning."));
    expect(existsSync(join(rig.ws.cwd, "notes.md"))).toBe(false);
    expect(rig.api.requests("[plan-next]")[1]?.toolResults[0]?.text).toMatch(/plan mode/i);
  });
});

describe("plan-auto", () => {
  it("approves the plan without asking and shows it as a message", async () => {
    const chat = rig.user(1009);
    await runPlanAuto(rig, chat, "[plan-auto]", "Done without asking.");
    const shown = await rig.botMessage(chat, "Plan approved automatically");
    expect(shown.buttons).toEqual([]);
    expect(rig.api.requests("[plan-auto]")[1]?.toolResults[0]).toMatchObject({ isError: false });
  });
});

/** Claude asks one question with two options (and the person may type their own). */
const ask = reply.tool("AskUserQuestion", COLOR_QUESTION);

describe("questions", () => {
  it("an option tapped reaches the model as the answer", async () => {
    const chat = rig.user(1006);
    rig.script("[q-tap]", [ask, reply.text("Green it is.")]);
    rig.tg.sendText(chat, "Make a button [q-tap]");
    const question = await rig.botMessage(chat, withButton("Green"));
    expect(question.text).toContain("Which color should the button be?");
    expect(await tap(chat, question, "Green")).toBe("✓ Green");
    await rig.botMessage(chat, isAnswer("Green it is."));
    expect(rig.api.requests("[q-tap]")[1]?.toolResults[0]?.text).toContain(
      '"Which color should the button be?"="Green"',
    );
  });

  it("a typed reply answers it, after 'Type an answer' or straight away", async () => {
    const chat = rig.user(1007);
    rig.script("[q-type]", [ask, reply.text("Teal it is."), ask, reply.text("Purple it is.")]);
    rig.tg.sendText(chat, "Make a button [q-type]");
    const question = await rig.botMessage(chat, withButton("Type an answer"));
    expect(await tap(chat, question, "Type an answer")).toBe("Send your answer as a message");
    await rig.tg.waitFor(
      () => /Send your answer as a message/.test(rig.tg.message(chat, question.messageId)?.text ?? ""),
      { what: "the prompt asking for text" },
    );
    rig.tg.sendText(chat, "teal, like the logo");
    await rig.botMessage(chat, isAnswer("Teal it is."));
    expect(rig.api.requests("[q-type]")[1]?.toolResults[0]?.text).toContain(
      '"Which color should the button be?"="teal, like the logo"',
    );

    rig.tg.sendText(chat, "Another button [q-type]");
    const second = await rig.botMessage(
      chat,
      (m) => m.messageId > question.messageId && withButton("Type an answer")(m),
    );
    rig.tg.sendText(chat, "purple", { replyTo: second.messageId });
    await rig.botMessage(chat, isAnswer("Purple it is."));
    expect(rig.api.requests("[q-type]")[3]?.toolResults[0]?.text).toContain(
      '"Which color should the button be?"="purple"',
    );
  });
});

describe("an open decision while the chat does other things", () => {
  let small: Rig;
  let dirs: string[];
  beforeAll(async () => {
    dirs = await Promise.all(["api", "docs"].map((name) => mkdtemp(join(tmpdir(), `telecode-${name}-project-`))));
    // Two buttons' tokens remembered besides open decisions', instead of 5000; two more projects.
    small = await startRig({
      tuning: { buttonMemory: 2 },
      toml: ["api", "docs"].flatMap((name, i) => [`[projects.${name}]`, `path = ${JSON.stringify(dirs[i])}`]),
    });
  });
  afterAll(async () => {
    await small?.dispose();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const allowFor = (file: string) => (m: MessageView) => withButton("✅ Allow")(m) && m.text.includes(file);

  it("Allow still works after more buttons than the memory holds were shown elsewhere", async () => {
    const chat = small.user(1001);
    const other = small.user(1002);
    small.script("[held]", [reply.bash("touch held.txt", "Create a file"), reply.text("Created the held file.")]);
    small.tg.sendText(chat, "Create the file [held]");
    const prompt = await small.botMessage(chat, withButton("✅ Allow"));
    for (let i = 0; i < 4; i++) await small.command(other, "mode");
    const query = small.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    expect((await small.tg.waitForCallbackAnswer(query)).text).toBe("Approved");
    await small.botMessage(chat, isAnswer("Created the held file."));
    expect(existsSync(join(small.ws.cwd, "held.txt"))).toBe(true);
  });

  it("a typed answer reaches a question asked in another project of the chat, not a new run", async () => {
    const chat = small.user(1003);
    small.script("[other-project]", [ask, reply.text("Teal in the api it is.")]);
    small.tg.sendText(chat, "/api Make a button [other-project]");
    const question = await small.botMessage(chat, withButton("Type an answer"));
    const query = small.tg.tapButton(chat, question.messageId, "Type an answer");
    expect((await small.tg.waitForCallbackAnswer(query)).text).toBe("Send your answer as a message");
    small.tg.sendText(chat, "teal [typed-teal]");
    await small.botMessage(chat, isAnswer("Teal in the api it is."));
    expect(small.api.requests("[other-project]")[1]?.toolResults[0]?.text).toContain(
      '"Which color should the button be?"="teal [typed-teal]"',
    );
    // No run was started with the answer as its prompt.
    expect(small.api.requests("[typed-teal]")).toHaveLength(0);
  });

  it("with group_approvals = \"requester\", another member's words go to the group's project, not to the asker's waiting decision", async () => {
    const [asker, other] = [small.user(1005), small.user(1006)];
    const group = -100_400;
    await inRequesterGroup(small, group, [asker, other], async (say) => {
      small.script("[req-api]", [reply.bash("touch req-api.txt", "Create a file"), reply.text("Done in api.")]);
      small.script("[req-docs]", [reply.text("Docs listed.")]);
      say("/api Create it [req-api]", asker);
      const prompt = await small.botMessage(group, allowFor("req-api.txt"));
      // The group's own project is docs; the decision waits in api, and only its asker may answer it.
      await small.command(group, "project", "docs");
      say("list the files [req-docs]", other);
      await small.botMessage(group, isAnswer("Docs listed."));
      expect(JSON.stringify(small.api.requests("[req-docs]")[0]?.body)).toContain(dirs[1]);
      const query = small.tg.tapButton(group, prompt.messageId, "✅ Allow", { from: asker });
      expect((await small.tg.waitForCallbackAnswer(query)).text).toBe("Approved");
      await small.botMessage(group, isAnswer("Done in api."));
    });
  });

  it("with decisions waiting in two other projects, a plain message asks which one it answers; each answer quotes its task", async () => {
    const chat = small.user(1004);
    small.script("[two-a]", [reply.bash("touch two-a.txt", "Create a file"), reply.text("Done in app.")]);
    small.script("[two-b]", [reply.bash("touch two-b.txt", "Create a file"), reply.text("Done in api.")]);
    const askedApp = small.tg.sendText(chat, "/app Create it [two-a]");
    const first = await small.botMessage(chat, allowFor("two-a.txt"));
    const askedApi = small.tg.sendText(chat, "/api Create it [two-b]");
    const second = await small.botMessage(chat, allowFor("two-b.txt"));
    await small.command(chat, "project", "docs");
    small.tg.sendText(chat, "go ahead [which-one]");
    const asked = await small.botMessage(chat, /waiting for your answer/);
    expect(asked.text).toBe(
      "Claude is waiting for your answer in app and api. Reply to the question you are answering (swipe left on it); to give docs a new task, start the message with /docs.",
    );
    expect(small.api.requests("[which-one]")).toHaveLength(0);
    for (const prompt of [first, second]) {
      const query = small.tg.tapButton(chat, prompt.messageId, "✅ Allow");
      expect((await small.tg.waitForCallbackAnswer(query)).text).toBe("Approved");
    }
    // The two worked side by side: each answer quotes the message it answers.
    expect((await small.botMessage(chat, isAnswer("Done in app."))).replyToMessageId).toBe(askedApp);
    expect((await small.botMessage(chat, isAnswer("Done in api."))).replyToMessageId).toBe(askedApi);
  });
});
