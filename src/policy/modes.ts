// Permission modes: which ones ask a person, which run on their own, and what Telecode passes
// to the CLI. Pure lookups; the CLI's own mode strings are taken as they come.
import type { PermissionMode } from "../domain/index.js";

/** The mode string for `--permission-mode` / `set_permission_mode`: `plan-auto` is the CLI's `plan`. */
export function cliModeFor(mode: PermissionMode): string {
  return mode === "plan-auto" ? "plan" : mode;
}

/**
 * Autonomous modes allow tool calls without asking (decision table row 3); the others
 * (`default`, `acceptEdits`) send every request the CLI makes to the person (row 4).
 */
export function isAutonomousMode(mode: PermissionMode): boolean {
  switch (mode) {
    case "plan":
    case "plan-auto":
    case "auto":
    case "dontAsk":
    case "bypassPermissions":
      return true;
    case "default":
    case "acceptEdits":
      return false;
  }
}

/** A plan-mode chat: the CLI should be back in plan mode for every new request. */
export function isPlanChat(mode: PermissionMode): boolean {
  return mode === "plan" || mode === "plan-auto";
}

/**
 * The line a front end shows for the mode in effect: the chat's mode, plus what the CLI
 * reports when they differ (e.g. "plan · now default (plan approved)").
 */
export function describeMode(chatMode: PermissionMode, cliMode: string | undefined): string {
  if (cliMode === undefined || cliMode === cliModeFor(chatMode)) return chatMode;
  if (isPlanChat(chatMode) && cliMode !== "plan") return `${chatMode} · now ${cliMode} (plan approved)`;
  return `${chatMode} · now ${cliMode}`;
}

/** What each mode does, in a few words that fit on a phone's button. */
export const MODE_SUMMARIES: Readonly<Record<PermissionMode, string>> = {
  default: "asks before changes",
  acceptEdits: "edits without asking",
  plan: "plans, changes nothing",
  "plan-auto": "plans, then does it",
  auto: "acts without asking",
  dontAsk: "only pre-approved tools",
  bypassPermissions: "every tool, no checks",
};
