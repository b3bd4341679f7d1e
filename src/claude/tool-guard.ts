// Tools Telecode decides itself, through PreToolUse hook callbacks: the matchers sent with
// `initialize` and the handlers that read a hook's input and write its answer. They fail
// closed: a guard that throws, or input that cannot be read, denies the call.
import type { HookMatchers } from "./spec.js";

/** One call of a guarded tool, as the hook reports it. */
export type GuardedToolCall = Readonly<{
  toolName: string;
  input: Readonly<Record<string, unknown>>;
  toolUseId: string | undefined;
  /** The CLI session the call is made in. */
  sessionId: string | undefined;
}>;

/** "deny": the model reads `reason` as the tool's error; "ask": the normal permission flow goes on. */
export type ToolVerdict = Readonly<{ decision: "deny"; reason: string }> | Readonly<{ decision: "ask" }>;

export type ToolGuard = (call: GuardedToolCall, signal: AbortSignal) => ToolVerdict | Promise<ToolVerdict>;

/** A hook callback: the hook's input in, its output object out. */
export type HookHandler = (input: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;

export type GuardHooks = Readonly<{
  /** For `SessionSpec.hooks` (sent again whenever initialize is, e.g. on re-attach). */
  matchers: HookMatchers;
  /** By callback id, for the session controller's `hookCallback`. */
  handlers: ReadonlyMap<string, HookHandler>;
}>;

export type GuardOptions = {
  /** What the model reads when the guard failed (the call is denied). */
  failedReason: string;
  onError?: (error: unknown, toolName: string) => void;
};

const deny = (reason: string): Record<string, unknown> => ({
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason },
});

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** PreToolUse hooks that send every call of `tools` through `guard`. */
export function toolGuardHooks(tools: readonly string[], guard: ToolGuard, options: GuardOptions): GuardHooks {
  const handlers = new Map<string, HookHandler>();
  const matchers = tools.map((tool) => {
    const id = `telecode_guard_${tool}`;
    handlers.set(id, async (input, signal) => {
      try {
        const toolInput = input["tool_input"];
        const call: GuardedToolCall = {
          toolName: text(input["tool_name"]) ?? tool,
          input: typeof toolInput === "object" && toolInput !== null ? (toolInput as Record<string, unknown>) : {},
          toolUseId: text(input["tool_use_id"]),
          sessionId: text(input["session_id"]),
        };
        const verdict = await guard(call, signal);
        return verdict.decision === "deny" ? deny(verdict.reason) : {};
      } catch (error) {
        options.onError?.(error, tool);
        return deny(options.failedReason);
      }
    });
    return { matcher: tool, hookCallbackIds: [id] };
  });
  return { matchers: { PreToolUse: matchers }, handlers };
}
