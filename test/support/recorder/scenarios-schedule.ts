// The u-series: cron jobs, wake-ups, Monitor and the turns the CLI starts by itself. Most wait
// on the CLI's own clock (a cron fires at the next whole minute), so they are marked slow and
// recorded only with --slow; u7, u8 and u11 take seconds and are part of the default set.
import { reply, type FakeReply } from "../fake-anthropic/index.js";
import type { Scenario } from "./scenario.js";
import { answerHook, controlRun, initialize, interrupt, user, controlArgs } from "./steps.js";

/** The answer to every turn the CLI starts itself: "<word> <request number>". */
const numbered = (word: string): FakeReply => reply.dynamic((request) => reply.text(`${word} ${request.n}`));

const CRON_PROMPT = "Every minute, check the build";
const cronEveryMinute = (prompt: string, durable = false): FakeReply[] => [
  reply.tool("ToolSearch", { query: "select:CronCreate,CronList,CronDelete" }),
  reply.tool("CronCreate", { cron: "* * * * *", prompt, recurring: true, ...(durable ? { durable: true } : {}) }),
  reply.text(durable ? "Scheduled the durable check." : "Scheduled the recurring check."),
];
const wakeUp = (delaySeconds: number, prompt: string, reason = "waiting for the build"): FakeReply =>
  reply.tool("ScheduleWakeup", { delaySeconds, reason, prompt, noop: false });

/** A cron fires within a minute of being due; two fires can take two minutes, more on a busy machine. */
const FIRE_TIMEOUT_MS = 200_000;
const waitForFires = (count: number) => ({ waitFor: "command_lifecycle/completed", count, timeoutMs: FIRE_TIMEOUT_MS });

/** A resumed process that gets no user message: initialize, then idle for `idleMs`. */
const idleResume = (resumeFrom: string, idleMs: number, env?: Record<string, string | null>) => ({
  label: "main",
  args: (context: { sessionOf(label: string): string }) => [
    ...controlArgs(),
    "--resume",
    context.sessionOf(resumeFrom),
  ],
  ...(env === undefined ? {} : { env }),
  steps: [initialize(), { pauseMs: idleMs }, { closeStdin: true as const }],
});

export const scheduleScenarios: readonly Scenario[] = [
  {
    name: "u1-cron-live-fire",
    slow: true,
    description:
      "CronCreate every minute (recurring, session-only) in a live control session; stdin stays open; wait for the CLI to fire it twice",
    replies: cronEveryMinute("TICK-PROMPT check the build"),
    fallback: numbered("TICK-ANSWER"),
    runs: [controlRun({ prompt: CRON_PROMPT, middle: [waitForFires(2)], closeAfterMs: 1000 })],
  },
  {
    name: "u2-cron-resume",
    slow: true,
    description:
      "run0: CronCreate every minute (session-only); wait for one live fire; close stdin. main: --resume with stdin open and no user message until the job fires again, then a user message",
    replies: cronEveryMinute("TICK-PROMPT check the build"),
    fallback: numbered("ANSWER"),
    runs: [
      controlRun({ label: "run0", prompt: CRON_PROMPT, middle: [waitForFires(1)] }),
      controlRun({
        resumeFrom: "run0",
        middle: [waitForFires(1), { pauseMs: 1000 }, user("USER-AFTER-WAIT hello")],
      }),
    ],
  },
  {
    name: "u2b-cron-resume-nofire",
    slow: true,
    description:
      "run0: CronCreate every minute, exit before any fire. run1: --resume with CLAUDE_CODE_DISABLE_CRON=1, no user message, 70 s. main: --resume without the env, no user message, until the job fires",
    replies: cronEveryMinute("TICK-PROMPT check the build"),
    fallback: numbered("ANSWER"),
    runs: [
      controlRun({ label: "run0", prompt: CRON_PROMPT, closeAfterMs: 200 }),
      { ...idleResume("run0", 70_000, { CLAUDE_CODE_DISABLE_CRON: "1" }), label: "run1" },
      controlRun({ resumeFrom: "run0", middle: [waitForFires(1)], results: 0, closeAfterMs: 1000 }),
    ],
  },
  {
    name: "u3-cron-durable",
    slow: true,
    description:
      "run0: CronCreate every minute with durable:true; close stdin right after the first result (before any fire). main: a NEW session (no --resume) in the same project, stdin open, one user message: does the durable job fire there?",
    replies: [
      ...cronEveryMinute("DURABLE-PROMPT check the build", true),
      ...cronEveryMinute("DURABLE-PROMPT check the build", true),
    ],
    fallback: numbered("ANSWER"),
    runs: [
      controlRun({ label: "run0", prompt: `${CRON_PROMPT}, and keep doing it across restarts`, closeAfterMs: 200 }),
      controlRun({ prompt: "NEW-SESSION hello", middle: [waitForFires(2)], closeAfterMs: 1000 }),
    ],
  },
  {
    name: "u3b-cron-durable",
    slow: true,
    description:
      "run0: CronCreate every minute with durable:true; close stdin right after the first result. main: a NEW session (no --resume) in the same project, one user message answered with text only; does the durable job fire in the new session?",
    replies: [...cronEveryMinute("DURABLE-PROMPT check the build", true), reply.text("hello back")],
    fallback: numbered("NEWSESS-ANSWER"),
    runs: [
      controlRun({ label: "run0", prompt: `${CRON_PROMPT}, and keep doing it across restarts`, closeAfterMs: 200 }),
      controlRun({ prompt: "NEW-SESSION hello", middle: [waitForFires(1)], closeAfterMs: 1000 }),
    ],
  },
  {
    name: "u4-disable-cron",
    slow: true,
    description:
      "CLAUDE_CODE_DISABLE_CRON=1: init tools list; model tries ToolSearch select:CronCreate, CronCreate and ScheduleWakeup; wait 75 s with stdin open",
    env: { CLAUDE_CODE_DISABLE_CRON: "1" },
    replies: [
      reply.tool("ToolSearch", { query: "select:CronCreate,ScheduleWakeup" }),
      reply.tool("CronCreate", { cron: "* * * * *", prompt: "TICK-PROMPT", recurring: true }),
      wakeUp(60, "WAKE-PROMPT", "test wake"),
      reply.text("Done trying."),
    ],
    runs: [controlRun({ prompt: CRON_PROMPT, closeAfterMs: 67_000 })],
  },
  {
    name: "u4b-disable-cron-wakeup",
    slow: true,
    description: "CLAUDE_CODE_DISABLE_CRON=1: ScheduleWakeup 60 s; stdin open 130 s",
    env: { CLAUDE_CODE_DISABLE_CRON: "1" },
    replies: [
      reply.tool("ToolSearch", { query: "select:ScheduleWakeup" }),
      wakeUp(60, "WAKE-PROMPT", "test wake"),
      reply.text("Done."),
    ],
    runs: [controlRun({ prompt: CRON_PROMPT, closeAfterMs: 129_500 })],
  },
  {
    name: "u5-schedule-wakeup",
    slow: true,
    description:
      "ScheduleWakeup delaySeconds 30 (clamped to 60) outside /loop, in a live control session; stdin open; wait for the wake-up turn",
    replies: [
      reply.tool("ToolSearch", { query: "select:ScheduleWakeup" }),
      wakeUp(30, "WAKE-PROMPT check the build"),
      reply.text("Will check back."),
    ],
    fallback: numbered("WAKE-ANSWER"),
    runs: [controlRun({ prompt: "Check the build in a bit", middle: [waitForFires(1)], closeAfterMs: 1000 })],
  },
  {
    name: "u6-hook-deny-resume",
    slow: true,
    description:
      "a PreToolUse hook callback (matcher CronCreate) denies; CronList afterwards; then --resume without hooks, 75 s idle: no resurrection expected",
    replies: [
      reply.tool("ToolSearch", { query: "select:CronCreate,CronList" }),
      reply.tool("CronCreate", { cron: "* * * * *", prompt: "TICK-PROMPT", recurring: true }),
      reply.tool("CronList", {}),
      reply.text("OK."),
    ],
    runs: [
      controlRun({
        label: "run0",
        prompt: CRON_PROMPT,
        hooks: { PreToolUse: [{ matcher: "CronCreate", hookCallbackIds: ["ut_loop_cron_create"], timeout: 30 }] },
        middle: [
          answerHook({
            hookSpecificOutput: {
              hookEventName: "PreToolUse",
              permissionDecision: "deny",
              permissionDecisionReason:
                "Scheduled by the bridge as loop ut_loop_abcd1234; do not call CronCreate again.",
            },
          }),
        ],
        closeAfterMs: 200,
      }),
      idleResume("run0", 75_000),
    ],
  },
  {
    name: "u7-loop-skill",
    description:
      "user sends '/loop 1m TICK check the build' over stream-json; capture what the CLI sends to the model (the /loop skill text)",
    replies: [reply.text("ok")],
    runs: [controlRun({ prompt: "/loop 1m TICK check the build" })],
  },
  {
    name: "u8-loop-dynamic",
    description: "user sends '/loop check the build' (no interval: dynamic mode); capture the skill text",
    replies: [reply.text("ok")],
    runs: [controlRun({ prompt: "/loop check the build" })],
  },
  {
    name: "u9-wakeup-resume",
    slow: true,
    description:
      "run0: ScheduleWakeup 60 s, stdin closed right after the result (before the wake). main: --resume, no user message, 90 s: does the wake-up survive the restart?",
    replies: [
      reply.tool("ToolSearch", { query: "select:ScheduleWakeup" }),
      wakeUp(60, "WAKE-PROMPT check the build"),
      reply.text("Will check back."),
    ],
    runs: [
      controlRun({ label: "run0", prompt: "Check the build in a bit", closeAfterMs: 200 }),
      idleResume("run0", 90_000),
    ],
  },
  {
    name: "u10-interrupt-idle",
    slow: true,
    description:
      "CronCreate every minute and ScheduleWakeup 60 s in one turn; after the result the consumer sends interrupt while idle; which still fires?",
    replies: [
      reply.tool("ToolSearch", { query: "select:CronCreate,ScheduleWakeup" }),
      reply.tool("CronCreate", { cron: "* * * * *", prompt: "TICK-PROMPT", recurring: true }),
      wakeUp(60, "WAKE-PROMPT", "poll"),
      reply.text("Both armed."),
    ],
    fallback: numbered("FIRED-ANSWER"),
    runs: [
      controlRun({
        prompt: "poll the build",
        middle: [{ waitFor: "result" }, { pauseMs: 500 }, interrupt("int_1"), waitForFires(2)],
        closeAfterMs: 1000,
      }),
    ],
  },
  {
    name: "u11-user-uuid",
    description:
      "a user line carrying a uuid: does the CLI bracket that turn with command_lifecycle (command_uuid = our uuid)?",
    keep: ["11111111-2222-4333-8444-555555555555"],
    replies: [reply.text("ok"), reply.text("ok 2")],
    runs: [
      {
        label: "main",
        args: controlArgs(),
        steps: [
          initialize(),
          user("hello with uuid", "11111111-2222-4333-8444-555555555555"),
          { waitFor: "result" },
          { pauseMs: 300 },
          user("second without uuid"),
          { waitFor: "result", count: 2 },
          { pauseMs: 500 },
          { closeStdin: true },
        ],
      },
    ],
  },
  {
    name: "u12-monitor",
    slow: true,
    description:
      "Monitor with a short shell command printing two lines: each event starts a turn of its own, and the task's end one more",
    replies: [
      reply.tool("ToolSearch", { query: "select:Monitor" }),
      reply.tool("Monitor", {
        description: "watch the fake build",
        timeout_ms: 20000,
        command: "sleep 1; echo EVT-ONE; sleep 3; echo EVT-TWO; sleep 1",
      }),
      reply.text("Monitor armed."),
    ],
    fallback: numbered("MONITOR-TURN"),
    runs: [
      controlRun({
        prompt: "watch the build",
        // Each output line starts a turn, the task's end one more; on a busy machine two lines can
        // share a turn, so wait for the end and three results, then give a last turn time to finish.
        middle: [{ waitFor: "system/task_notification", timeoutMs: 60_000 }],
        results: 3,
        closeAfterMs: 3000,
      }),
    ],
  },
];
