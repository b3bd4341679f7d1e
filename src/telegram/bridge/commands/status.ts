// /status: the chat's project (and its worktree of it, when the project has them), mode (and the CLI's own), model, effort, switches, the installed
// Claude Code against the versions Telecode is tested with, the session and what runs now in
// each of its lanes (and which runs are kept: they go on across a restart); its schedules and
// webhooks, and whether triggers are paused.
import { isExistingFolder } from "../../../config/index.js";
import { formatDurationMs, offeredModel } from "../../../domain/index.js";
import { describeMode } from "../../../policy/index.js";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { laneFolder, worktreeBranch } from "../../../worktrees/index.js";
import type { BridgeServices } from "../services.js";
import type { Command, CommandCall } from "./command.js";
import { laneSession, sessionWords } from "./lane-session.js";

export const statusCommand: Command = {
  command: "status",
  description: "Sessions, running tasks, mode, model, project",
  run: (call, services) => call.say(statusHtml(call, services)),
};

function statusHtml(
  call: CommandCall,
  { store, runs, sessions, clock, triggers, models, claudeVersion }: BridgeServices,
): string {
  const { config, settings: s } = call;
  const chatId = call.message.chatId;
  const lines = ["<b>Telecode status</b>"];
  if (config.claude.dangerouslySkipPermissions)
    lines.push(
      "⚠️ <b>claude.dangerously_skip_permissions is on</b>: Claude Code runs every tool without asking anyone.",
    );
  lines.push(
    s.project === undefined
      ? "Project: none set up"
      : `Project: <b>${esc(s.project.name)}</b> — <code>${esc(s.project.path)}</code>${isExistingFolder(s.project.path) ? "" : " ⚠️ no folder there now: its messages fail until there is one"}`,
  );
  const lane = s.project === undefined ? undefined : { chatId, project: s.project.name };
  if (s.project !== undefined && lane !== undefined && s.project.worktreesDir !== null) {
    const folder = laneFolder(s.project, lane);
    const made = isExistingFolder(folder) ? "" : ", made at this chat's next task";
    lines.push(`Worktree: <code>${esc(folder)}</code>, branch <code>${esc(worktreeBranch(lane))}</code>${made}`);
  }
  const cliMode = lane === undefined ? undefined : runs.cliMode(lane);
  const modeLine =
    cliMode === undefined
      ? esc(s.mode)
      : `${esc(describeMode(s.mode, cliMode))} (Claude Code is in ${esc(cliMode)} mode)`;
  // "default" and "sonnet" say which model they are, once Claude Code has listed its models.
  const model = s.model ?? "default";
  const resolved = offeredModel(models() ?? [], model)?.resolvesTo;
  const modelLine = resolved === undefined || resolved === model ? esc(model) : `${esc(model)} (${esc(resolved)})`;
  lines.push(`Mode: ${modeLine} · Model: ${modelLine} · Effort: ${esc(s.effort ?? "default")}`);
  lines.push(`Previews: ${s.preview ? "on" : "off"} · Questions: ${s.questions ? "on" : "off"}`);
  const version = claudeVersion();
  if (version !== undefined)
    lines.push(`${version.status === "ok" ? "" : "⚠️ "}${version.found ? "Claude Code: " : ""}${esc(version.detail)}`);
  const live = sessions.status(chatId);
  const session = laneSession(chatId, lane?.project, { store, sessions });
  lines.push(`Session: ${sessionWords(session, (id) => `<code>${esc(id.slice(0, 8))}</code>`)}`);
  if (live.length === 0) lines.push("Running: nothing");
  for (const entry of live) {
    const view = entry.runningRunId === undefined ? undefined : runs.byRun(entry.runningRunId);
    const running =
      entry.runningRunId === undefined
        ? "idle"
        : `working for ${formatDurationMs(clock.now() - (view?.startedAtMs ?? clock.now()))}`;
    const kept = entry.runningRunId !== undefined && entry.kept ? " · goes on if Telecode restarts" : "";
    lines.push(
      `• ${esc(entry.lane.project)}: ${running}${entry.queued > 0 ? `, ${entry.queued} queued` : ""}${entry.pid === undefined ? "" : ` (pid ${entry.pid})`}${kept}`,
    );
  }
  const scheduled = triggers.statusLines(chatId);
  if (triggers.isPaused()) lines.push("Triggers: ⏸ paused (schedules, loops and webhooks wait for /resume)");
  if (scheduled.length > 0) lines.push("Schedules and webhooks:", ...scheduled.map((line) => `• ${esc(line)}`));
  return lines.join("\n");
}
