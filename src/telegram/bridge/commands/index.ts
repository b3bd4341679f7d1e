// Every bot command, in menu order (setMyCommands and /help). A new command is a file in this
// folder and one line here.
import { atCommand, everyCommand } from "./at-every.js";
import { btwCommand } from "./btw.js";
import { cancelCommand } from "./cancel.js";
import type { Command } from "./command.js";
import { continueCommand } from "./continue.js";
import { effortCommand } from "./effort.js";
import { fileCommand } from "./file.js";
import { helpCommand, startCommand } from "./help.js";
import { listenCommand } from "./listen.js";
import { loopsCommand } from "./loops.js";
import { modeCommand } from "./mode.js";
import { modelCommand } from "./model.js";
import { newCommand } from "./new.js";
import { pauseCommand, resumeCommand } from "./pause.js";
import { planModeCommand } from "./plan-mode.js";
import { previewCommand } from "./preview.js";
import { projectCommand } from "./project.js";
import { restartCommand } from "./restart.js";
import { sessionsCommand } from "./sessions.js";
import { statusCommand } from "./status.js";
import { usageCommand } from "./usage.js";

export const COMMANDS: readonly Command[] = [
  newCommand,
  cancelCommand,
  btwCommand,
  statusCommand,
  planModeCommand,
  modeCommand,
  modelCommand,
  effortCommand,
  projectCommand,
  continueCommand,
  sessionsCommand,
  previewCommand,
  usageCommand,
  loopsCommand,
  atCommand,
  everyCommand,
  pauseCommand,
  resumeCommand,
  fileCommand,
  restartCommand,
  listenCommand,
  helpCommand,
  startCommand,
];

export { commandComposer } from "./command.js";
export type { Command, CommandCall } from "./command.js";
