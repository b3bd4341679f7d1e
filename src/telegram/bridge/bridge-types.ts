// What a button does, kept server-side behind its callback token. Types only.
import type { PermissionMode } from "../../domain/index.js";

export type BridgeAction =
  | {
      kind: "decision";
      decisionId: string;
      chatId: number;
      promptKind: "approval" | "plan" | "question";
      choices: { id: string; label: string }[];
    }
  | { kind: "mode"; modes: readonly PermissionMode[] }
  | { kind: "project"; names: readonly string[] };

export type DecisionAction = Extract<BridgeAction, { kind: "decision" }>;
