// Claude Code's task list in the progress message, end to end: the real CLI keeps the list
// (its TaskCreate / TaskUpdate tools, which it offers only to the models it knows, so the fake
// one gets them through CLAUDE_CODE_ENABLE_TODO_TOOLS), the bridge shows it as a plan.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({
    env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
    claude: ['env_allow = ["CLAUDE_CODE_ENABLE_TODO_TOOLS"]'],
  });
});
afterAll(async () => {
  await rig?.dispose();
});

const task = (subject: string, activeForm?: string) =>
  reply.tool("TaskCreate", { subject, description: subject, ...(activeForm === undefined ? {} : { activeForm }) });
const update = (taskId: string, status: string) => reply.tool("TaskUpdate", { taskId, status });

/** Every text a message showed, each edit included. */
const shown = (message: MessageView): string[] => message.revisions.map((r) => r.text);

describe("Claude Code's task list", () => {
  it("is a plan in the progress message, shown again in the next run after a restart, and where it stands in the summary", async () => {
    const chat = rig.user(1001);
    rig.script("[plan]", [
      task("Read the code", "Reading the code"),
      task("Run the tests", "Running the tests"),
      task("Fix the bug"),
      update("1", "in_progress"),
      update("1", "completed"),
      update("2", "in_progress"),
      update("99", "completed"),
      reply.text("The tests run next.", { delayMs: 2500 }),
    ]);
    rig.tg.sendText(chat, "Plan the fix [plan]");
    const answer = await rig.botMessage(chat, isAnswer("The tests run next."));
    const progress = rig.tg.botMessages(chat)[0]!;
    const working = shown(progress)
      .filter((text) => text.includes("▸ Running the tests"))
      .at(-1);
    expect(working).toBeDefined();
    expect(working).toContain("☑ Tasks · 1/3 done\n✓ Read the code\n▸ Running the tests\n○ Fix the bug");
    // The plan says what its tools did; an update the CLI could not make still says why.
    expect(working).not.toContain("TaskCreate");
    expect(working).toContain("✗ ☑ TaskUpdate #99 completed — Task not found");
    await rig.tg.waitFor(() => /Done/.test(rig.tg.message(chat, progress.messageId)!.text), {
      what: "the progress summary",
    });
    expect(rig.tg.message(chat, progress.messageId)!.text).toMatch(
      /^✅ Done · .*\n☑ Tasks · 1\/3 done · next: Run the tests\n\n✗ ☑ TaskUpdate #99 completed — Task not found$/,
    );

    // After a restart (the session's CLI process ended, or kept by its keeper), the next
    // message's run shows the plan it works on before it changes.
    await rig.app.stop({ flushTimeoutMs: 2000 });
    await rig.startApp();
    rig.script("[plan-2]", [
      { ...update("2", "completed"), delayMs: 2500 },
      update("3", "deleted"),
      reply.text("All done."),
    ]);
    rig.tg.sendText(chat, "Go on [plan-2]", { replyTo: answer.messageId });
    await rig.botMessage(chat, isAnswer("All done."));
    const second = rig.tg.botMessages(chat).find((m) => m.messageId > answer.messageId && /Tasks ·/.test(m.text))!;
    expect(
      shown(second).some((text) => text.includes("☑ Tasks · 1/3 done\n✓ Read the code\n▸ Running the tests")),
    ).toBe(true);
    await rig.tg.waitFor(() => /Done/.test(rig.tg.message(chat, second.messageId)!.text), {
      what: "the second run's summary",
    });
    expect(rig.tg.message(chat, second.messageId)!.text).toMatch(/^✅ Done · .*\n☑ Tasks · 2\/2 done$/);
  });
});
