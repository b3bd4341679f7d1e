// The decisions of `telecode run`: the decision driver behind the terminal, showing prompts as
// numbered choices and reading typed answers (--approve ask), or denying what would wait for a
// person (--approve none).
import { userInfo } from "node:os";
import type { SessionController } from "../claude/index.js";
import type { DecisionSettings } from "../policy/index.js";
import type { Clock } from "../ports/index.js";
import { createDecisionDriver, createDecisionRegistry, createLinePersonPort } from "../sessions/decisions/index.js";
import type { ProgressView, readTypedAnswers, TypedAnswers } from "../terminal/index.js";
import { fileNowReader } from "./compose/file-now.js";

/** The terminal stderr, with its width when it has one. */
export type TerminalOut = NodeJS.WritableStream & { columns?: number };

/**
 * The decision driver (src/policy's machines) behind the terminal: `ask` shows prompts as
 * numbered choices and reads typed answers; `none` makes the run unattended, so whatever would
 * wait for a person is denied with a message the model reads.
 */
export function terminalDecisions(
  settings: Partial<DecisionSettings>,
  clock: Clock,
  ui: {
    view: ProgressView;
    stdin: NodeJS.ReadableStream;
    ask: boolean;
    terminal: TerminalOut | undefined;
    readTypedAnswers: typeof readTypedAnswers;
    /** files.deny_globs: nothing of such a file is read for an Edit or Write prompt. */
    denyGlobs: readonly string[];
  },
): { controller: SessionController; typed: TypedAnswers | undefined } {
  const registry = createDecisionRegistry();
  const lines = createLinePersonPort({
    write: (line) => ui.view.print(line),
    answers: registry,
    by: userInfo().username,
  });
  let typed: TypedAnswers | undefined;
  const port = {
    ...lines.port,
    ask: (pending: Parameters<typeof lines.port.ask>[0]) => {
      ui.view.promptShown(pending.requestId);
      lines.port.ask(pending);
      typed?.promptShown();
    },
  };
  const driver = createDecisionDriver({
    lane: { chatId: 0, project: "terminal" },
    settings,
    port,
    registry,
    clock,
    fileNow: fileNowReader(ui.denyGlobs),
  });
  if (ui.ask) {
    typed = ui.readTypedAnswers({
      input: ui.stdin,
      port: lines,
      onIgnored: (line) => ui.view.print(`(not pending any more: "${line}")`),
      onTypedAhead: (line) => ui.view.print(`› ${line}`),
      ...(ui.terminal === undefined ? {} : { terminal: ui.terminal }),
    });
    ui.view.attachInput(typed.inputLine);
  }
  const controller: SessionController = {
    observe: (event) => driver.observe(event),
    decide: (request, ctx) => {
      ui.view.approvalArrived(request);
      return driver.decide(request, ctx);
    },
    hookCallback: (id, input, signal) => driver.hookCallback(id, input, signal),
    beforeTurnFinished: (ctx) => driver.beforeTurnFinished(ctx),
  };
  return { controller, typed };
}
