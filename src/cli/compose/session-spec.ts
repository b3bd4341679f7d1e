// A session's side of the config: the CLI's spec (arguments, environment, watchdog limits), the
// hooks that take Claude's scheduling tools over, and the decision settings. Shared by the
// bridge's engine port and `telecode run`, which loads only this before spawning the CLI.
import {
  toolGuardHooks,
  type GuardHooks,
  type SessionController,
  type SessionSpec,
  type ToolGuard,
} from "../../claude/index.js";
import type { Config } from "../../config/index.js";
import { definedFields } from "../../domain/index.js";
import { cliModeFor, type DecisionSettings } from "../../policy/index.js";
import { answerWithoutScheduler, GUARD_FAILED_REASON, SCHEDULE_TOOLS } from "../../schedule/index.js";
import type { OpenRequest } from "../../sessions/index.js";

/**
 * The hooks that take Claude's scheduling tools over (CronCreate, CronDelete, CronList,
 * ScheduleWakeup), answered by `guard`; without one, every call is refused (nothing scheduled).
 * Their matchers are the same for every session; the CLI never holds a job of its own.
 */
export function scheduleHooks(guard?: ToolGuard, onError?: (error: unknown, toolName: string) => void): GuardHooks {
  return toolGuardHooks(SCHEDULE_TOOLS, guard ?? ((call) => answerWithoutScheduler(call)), {
    failedReason: GUARD_FAILED_REASON,
    ...definedFields({ onError }),
  });
}

/** `controller` with Telecode's own hook callbacks answered by `hooks` first. */
export function withGuardHooks(controller: SessionController, hooks: GuardHooks): SessionController {
  return {
    ...controller,
    hookCallback: (id, input, signal) =>
      hooks.handlers.get(id)?.(input, signal) ?? controller.hookCallback?.(id, input, signal) ?? Promise.resolve({}),
  };
}

/** Engine options derived from config: the same for every session. */
export function specFromConfig(
  config: Config,
  request: Pick<OpenRequest, "cwd" | "mode" | "model" | "effort" | "resume" | "freshIfGone" | "continueLatest">,
): SessionSpec {
  const { claude, limits } = config;
  const model = request.model ?? claude.model ?? undefined;
  const effort = request.effort ?? claude.effort ?? undefined;
  const spec: SessionSpec = {
    cwd: request.cwd,
    permissionMode: cliModeFor(request.mode),
    allowedTools: claude.allowedTools,
    extraArgs: claude.extraArgs,
    allowUnsafeArgs: claude.dangerouslyAllowUnsafeArgs,
    envAllow: claude.envAllow,
    provider: claude.provider,
    useApiBilling: claude.useApiBilling,
    dangerouslySkipPermissions: claude.dangerouslySkipPermissions,
    idleMs: limits.idleSessionMinutes * 60_000,
    stallNoteMs: limits.stallNoteMinutes * 60_000,
    hardSilenceMs: limits.hardSilenceMinutes * 60_000,
    hooks: scheduleHooks().matchers,
    // With loops off everywhere the CLI has no cron tools (and no /loop) at all.
    disableCron: !config.loops.enabled,
  };
  if (model) spec.model = model;
  if (effort) spec.effort = effort as NonNullable<SessionSpec["effort"]>;
  if (request.resume) spec.resume = request.resume;
  if (request.freshIfGone) spec.freshIfGone = true;
  if (request.continueLatest) spec.continue = true;
  return spec;
}

export function decisionSettingsFromConfig(config: Config, mode: OpenRequest["mode"]): Partial<DecisionSettings> {
  const { limits } = config;
  return {
    mode,
    rearmPlanMode: limits.planRearm,
    rearmDeferCeilingMs: limits.rearmCeilingMinutes * 60_000,
    approvalTimeoutMs: limits.approvalTimeoutMinutes > 0 ? limits.approvalTimeoutMinutes * 60_000 : null,
  };
}
