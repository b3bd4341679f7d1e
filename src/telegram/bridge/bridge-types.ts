// What a button does, kept server-side behind its callback token. Types only.
import type { Lane, PermissionMode } from "../../domain/index.js";

export type BridgeAction =
  | {
      kind: "decision";
      decisionId: string;
      chatId: number;
      promptKind: "approval" | "plan" | "question";
      choices: { id: string; label: string }[];
    }
  | { kind: "mode"; modes: readonly PermissionMode[] }
  | { kind: "project"; names: readonly string[] }
  | { kind: "model"; names: readonly string[] }
  /**
   * Pause, Resume and Stop buttons of schedules (a /loops list, a fired run, a confirmation);
   * `list`: the message is the /loops list; `stoppedHtml`: what a message whose one button stops
   * them all (/new's) says once tapped.
   */
  | { kind: "schedule"; scheduleIds: readonly string[]; list: boolean; stoppedHtml?: string }
  /**
   * The buttons under the notice that an edited message did not reach Claude: run `text` (the
   * edited words of message `messageId`) after, or instead of, run `runId` its first words started.
   */
  | { kind: "edit"; runId: string; messageId: number; text: string }
  /** The sign-in buttons of MCP servers that wait for one in the lane's Claude Code (mcp-sign-in.ts). */
  | { kind: "mcp_sign_in"; lane: Lane; servers: readonly string[] }
  /** The /sessions list's buttons: each makes one of `sessionIds` the lane's current session. */
  | { kind: "session_pick"; lane: Lane; sessionIds: readonly string[] }
  /** The button under an answer that sends Claude Code's guess at the next message, `text`, in `sessionId` (suggestions.ts). */
  | { kind: "suggestion"; lane: Lane; text: string; sessionId: string }
  /** Run it now, under the notice that message `messageId` waited too long to run by itself (messages/offline.ts). */
  | { kind: "offline"; messageId: number };

export type DecisionAction = Extract<BridgeAction, { kind: "decision" }>;
