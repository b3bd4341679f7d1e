// The per-chat switches the decision machines read, and what a run tells them. Plain data;
// config/ and the chat preferences fill these in.
import type { PermissionMode } from "../domain/index.js";

export type DecisionSettings = {
  /** The chat's mode (plan-auto included); the CLI may be in another one for a while. */
  mode: PermissionMode;
  /** Ask before Edit/Write/MultiEdit/Bash even in autonomous modes, showing the change. */
  previewChanges: boolean;
  /** Off: AskUserQuestion is denied at once with "proceed with reasonable defaults". */
  questionsEnabled: boolean;
  /** Put the CLI back in plan mode after an approved plan's work (plan / plan-auto chats). */
  rearmPlanMode: boolean;
  /** Longest wait for background agents of an approved plan before re-arming anyway. */
  rearmDeferCeilingMs: number;
  /** Deny a request nobody answered after this long; null waits as long as the session lives. */
  approvalTimeoutMs: number | null;
  /** Where the session works: prompts show the file paths in it relative to it. */
  projectRoot?: string | undefined;
};

export const defaultDecisionSettings: DecisionSettings = {
  mode: "default",
  previewChanges: false,
  questionsEnabled: true,
  rearmPlanMode: true,
  rearmDeferCeilingMs: 30 * 60_000,
  approvalTimeoutMs: null,
};

/** The run a request belongs to (a person's request, or a scheduled/webhook/loop one). */
export type RunInfo = { id: string; unattended: boolean };
