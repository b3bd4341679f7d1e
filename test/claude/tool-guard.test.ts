// The PreToolUse hooks Telecode registers for tools it decides itself: one matcher and callback
// id per tool, the hook's input read into a call, a denial written as the CLI reads it, and a
// guard that fails (or throws) denying the call: nothing slips through to the CLI.
import { describe, expect, it } from "vitest";
import { toolGuardHooks, type GuardedToolCall } from "../../src/claude/index.js";

const signal = new AbortController().signal;

describe("tool guard hooks", () => {
  it("registers one PreToolUse matcher per tool and answers with the guard's verdict", async () => {
    const seen: GuardedToolCall[] = [];
    const hooks = toolGuardHooks(
      ["CronCreate", "CronDelete"],
      (call) => {
        seen.push(call);
        return call.toolName === "CronCreate" ? { decision: "deny", reason: "kept by Telecode" } : { decision: "ask" };
      },
      { failedReason: "failed" },
    );
    expect(hooks.matchers).toEqual({
      PreToolUse: [
        { matcher: "CronCreate", hookCallbackIds: ["telecode_guard_CronCreate"] },
        { matcher: "CronDelete", hookCallbackIds: ["telecode_guard_CronDelete"] },
      ],
    });
    const create = hooks.handlers.get("telecode_guard_CronCreate");
    const input = {
      session_id: "s-1",
      hook_event_name: "PreToolUse",
      tool_name: "CronCreate",
      tool_input: { cron: "* * * * *", prompt: "x" },
      tool_use_id: "toolu_1",
    };
    expect(await create?.(input, signal)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "kept by Telecode",
      },
    });
    expect(seen[0]).toEqual({
      toolName: "CronCreate",
      input: { cron: "* * * * *", prompt: "x" },
      toolUseId: "toolu_1",
      sessionId: "s-1",
    });
    expect(await hooks.handlers.get("telecode_guard_CronDelete")?.({ tool_input: { id: "x" } }, signal)).toEqual({});
  });

  it("fails closed: a guard that throws denies the call with the failure reason, and is reported", async () => {
    const errors: unknown[] = [];
    const hooks = toolGuardHooks(
      ["ScheduleWakeup"],
      () => {
        throw new Error("the store is locked");
      },
      { failedReason: "nothing was scheduled", onError: (error) => errors.push(error) },
    );
    const output = await hooks.handlers.get("telecode_guard_ScheduleWakeup")?.({ tool_input: "garbled" }, signal);
    expect(output).toMatchObject({
      hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "nothing was scheduled" },
    });
    expect(errors).toHaveLength(1);
  });
});
