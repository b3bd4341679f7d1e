// The bot's commands: each reads or changes the chat's settings, or acts on its runs, and
// answers in one short message. Settings changes take effect with the next run (the session
// layer reopens the CLI when mode, model or effort differ).
import { describeMode } from "../../policy/index.js";
import { formatDurationMs, formatUsd, laneId, localDay } from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import { failed, startRun, type BridgeCore } from "./bridge-core.js";
import type { IncomingText } from "./bridge-types.js";
import { chatSettings, findProject } from "./chat-settings.js";
import { COMMANDS, modeFromWord, type CommandName } from "./command-text.js";
import { columnKeyboard } from "./prompt-html.js";

const EFFORT_WORDS = ["low", "medium", "high", "xhigh", "max"] as const;
export const MODE_CHOICES = ["default", "acceptEdits", "plan", "plan-auto", "auto", "dontAsk"] as const;

export function runCommand(core: BridgeCore, message: IncomingText, name: CommandName, args: string): void {
  const say = (html: string): void => void core.outbox.send(message.chatId, { html }, { replyTo: message.messageId });
  const config = core.config();
  const settings = chatSettings(config, core.store, message.chatId);
  const chatId = message.chatId;
  const word = args.split(/\s+/)[0]?.toLowerCase() ?? "";
  switch (name) {
    case "start":
    case "help":
      return say(helpHtml(settings.project?.name));
    case "new": {
      if (settings.project === undefined) return say(NO_PROJECT);
      const key = { chatId, project: settings.project.name };
      core.freshNext.add(laneId(key));
      core.store.sessions.clearCurrent(chatId, key.project);
      core.sessions().closeIdle(key).catch(failed(core, "telegram.close_failed"));
      const busy =
        core.sessions().runningRun(key) !== undefined ? " The task running now finishes in its old session." : "";
      return say(`🆕 Your next message starts a fresh session in <b>${esc(key.project)}</b>.${busy}`);
    }
    case "cancel": {
      const target = message.replyTo === undefined ? undefined : core.book.byMessage(chatId, message.replyTo.messageId);
      if (target?.runId !== undefined) {
        core
          .sessions()
          .cancel(target.runId)
          .then(
            (outcome) => say(outcome === "not_found" ? "That task already ended." : "⏹ Cancelling that task."),
            failed(core, "telegram.cancel_failed"),
          );
        return;
      }
      core
        .sessions()
        .cancelChat(chatId)
        .then(
          (count) =>
            say(
              count === 0
                ? "Nothing is running or queued here."
                : `⏹ Cancelling ${count === 1 ? "the task" : `${count} tasks`}.`,
            ),
          failed(core, "telegram.cancel_failed"),
        );
      return;
    }
    case "status":
      return say(statusHtml(core, chatId));
    case "planmode": {
      const mode = word === "on" ? "plan" : word === "auto" ? "plan-auto" : word === "off" ? "default" : undefined;
      if (mode === undefined) {
        const on = settings.mode === "plan" ? "on" : settings.mode === "plan-auto" ? "auto" : "off";
        return say(`Plan mode is <b>${on}</b> (mode ${esc(settings.mode)}). Use /planmode on, auto or off.`);
      }
      core.store.chats.update(chatId, { mode });
      return say(`Plan mode <b>${word}</b>: mode is now ${esc(mode)} from the next message.`);
    }
    case "mode": {
      if (word === "") {
        const token = core.callbacks.register({ kind: "mode", modes: MODE_CHOICES }, chatId);
        const keyboard = columnKeyboard(
          MODE_CHOICES.map((m, i) => ({
            label: m === settings.mode ? `• ${m}` : m,
            data: core.callbacks.data(token, `m${i}`),
          })),
        );
        void core.outbox.send(
          chatId,
          { html: `Mode is <b>${esc(settings.mode)}</b>. Choose another:`, keyboard },
          { replyTo: message.messageId },
        );
        return;
      }
      const mode = modeFromWord(word);
      if (mode === undefined) return say(`Unknown mode “${esc(word)}”. Modes: ${MODE_CHOICES.join(", ")}.`);
      core.store.chats.update(chatId, { mode });
      return say(`Mode is now <b>${esc(mode)}</b> from the next message.`);
    }
    case "model": {
      if (word === "")
        return say(`Model: <b>${esc(settings.model ?? "the CLI's default")}</b>. Use /model NAME, or /model default.`);
      const model = word === "default" ? null : (args.trim().split(/\s+/)[0] ?? null);
      core.store.chats.update(chatId, { model });
      return say(`Model is now <b>${esc(model ?? "the CLI's default")}</b> from the next message.`);
    }
    case "effort": {
      if (word === "")
        return say(
          `Effort: <b>${esc(settings.effort ?? "the CLI's default")}</b>. Use /effort ${EFFORT_WORDS.join("|")} or default.`,
        );
      const effort = word === "default" ? null : EFFORT_WORDS.find((e) => e === word);
      if (effort === undefined)
        return say(`Unknown effort “${esc(word)}”. Choose ${EFFORT_WORDS.join(", ")} or default.`);
      core.store.chats.update(chatId, { effort });
      return say(`Effort is now <b>${esc(effort ?? "the CLI's default")}</b> from the next message.`);
    }
    case "project": {
      if (word === "") {
        if (config.projects.length === 0) return say(NO_PROJECT);
        const names = config.projects.map((p) => p.name);
        const token = core.callbacks.register({ kind: "project", names }, chatId);
        const keyboard = columnKeyboard(
          names.map((n, i) => ({
            label: n === settings.project?.name ? `• ${n}` : n,
            data: core.callbacks.data(token, `p${i}`),
          })),
        );
        void core.outbox.send(
          chatId,
          { html: `Project: <b>${esc(settings.project?.name ?? "none")}</b>. Switch to:`, keyboard },
          { replyTo: message.messageId },
        );
        return;
      }
      const project = findProject(config, word);
      if (project === undefined)
        return say(`No project “${esc(word)}”. Projects: ${config.projects.map((p) => esc(p.name)).join(", ")}.`);
      core.store.chats.update(chatId, { project: project.name });
      return say(`Project is now <b>${esc(project.name)}</b> (<code>${esc(project.path)}</code>).`);
    }
    case "continue": {
      if (settings.project === undefined) return say(NO_PROJECT);
      const prompt = args.trim() === "" ? "Continue where we left off." : args.trim();
      startRun(core, {
        chatId,
        project: settings.project,
        prompt,
        choice: { kind: "continue" },
        promptMessageId: message.messageId,
      });
      return;
    }
    case "preview": {
      if (word !== "on" && word !== "off")
        return say(
          `Previews are <b>${settings.preview ? "on" : "off"}</b>: with them on, edits and commands wait for your OK with a diff. Use /preview on or off.`,
        );
      core.store.chats.update(chatId, { preview: word === "on" });
      if (settings.project !== undefined)
        core
          .sessions()
          .closeIdle({ chatId, project: settings.project.name })
          .catch(failed(core, "telegram.close_failed"));
      return say(`Previews are now <b>${word}</b> from the next message.`);
    }
    case "listen": {
      if (word !== "all" && word !== "mentions")
        return say(
          `In groups I answer ${settings.listenToAll ? "<b>every message</b>" : "<b>only when addressed</b> (mention, reply or command)"}. Use /listen all or /listen mentions.`,
        );
      core.store.chats.update(chatId, { listenToAll: word === "all" });
      return say(word === "all" ? "I now answer every message in this chat." : "I now answer only when addressed.");
    }
    case "usage":
      return say(usageHtml(core, chatId, settings.project?.name));
    case "restart":
      if (core.isStopping()) return say("Telecode is already restarting.");
      core.logger.event("telegram.restart_requested", { chatId, userId: message.from.id });
      say(
        `🔄 Restarting. Running tasks get ${config.limits.drainSeconds} s to finish; interrupted ones can be continued afterwards.`,
      );
      core.requestRestart();
      return;
  }
}

const NO_PROJECT = "No project is set up. Add a [projects.NAME] table with a path to the config.";

function helpHtml(project: string | undefined): string {
  const list = COMMANDS.filter((c) => c.command !== "start")
    .map((c) => `/${c.command} — ${esc(c.description)}`)
    .join("\n");
  return [
    "<b>Telecode</b> runs Claude Code on your computer and shows its work here.",
    `Send a task as a message${project === undefined ? "" : ` (project <b>${esc(project)}</b>)`}: you see its progress, approve what it asks with buttons, and get the answer as a new message.`,
    "Reply to an answer to continue that session; reply to a question or approval to answer it in your own words. A first line like <code>/app /plan</code> picks the project and mode for one message.",
    "",
    list,
  ].join("\n");
}

function statusHtml(core: BridgeCore, chatId: number): string {
  const config = core.config();
  const s = chatSettings(config, core.store, chatId);
  const lines = ["<b>Telecode status</b>"];
  if (config.claude.dangerouslySkipPermissions)
    lines.push(
      "⚠️ <b>claude.dangerously_skip_permissions is on</b>: Claude Code runs every tool without asking anyone.",
    );
  lines.push(
    s.project === undefined
      ? "Project: none set up"
      : `Project: <b>${esc(s.project.name)}</b> — <code>${esc(s.project.path)}</code>`,
  );
  const key = s.project === undefined ? undefined : { chatId, project: s.project.name };
  const cliMode = key === undefined ? undefined : core.cliModes.get(laneId(key));
  const modeLine =
    cliMode === undefined
      ? esc(s.mode)
      : `${esc(describeMode(s.mode, cliMode))} (Claude Code is in ${esc(cliMode)} mode)`;
  lines.push(`Mode: ${modeLine} · Model: ${esc(s.model ?? "default")} · Effort: ${esc(s.effort ?? "default")}`);
  lines.push(`Previews: ${s.preview ? "on" : "off"} · Questions: ${s.questions ? "on" : "off"}`);
  const current = key === undefined ? null : core.store.sessions.current(chatId, key.project);
  lines.push(
    `Session: ${current === null ? "none yet (the next message starts one)" : `<code>${esc(current.sessionId.slice(0, 8))}</code>`}`,
  );
  const live = core.sessions().status(chatId);
  if (live.length === 0) lines.push("Running: nothing");
  for (const entry of live) {
    const view = entry.runningRunId === undefined ? undefined : core.book.byRun(entry.runningRunId);
    const running =
      entry.runningRunId === undefined
        ? "idle"
        : `a task for ${formatDurationMs(core.clock.now() - (view?.startedAtMs ?? core.clock.now()))}`;
    lines.push(
      `• ${esc(entry.lane.project)}: ${running}${entry.queued > 0 ? `, ${entry.queued} queued` : ""}${entry.pid === undefined ? "" : ` (pid ${entry.pid})`}`,
    );
  }
  return lines.join("\n");
}

function usageHtml(core: BridgeCore, chatId: number, project: string | undefined): string {
  const today = core.store.usage.forDay(localDay(new Date(core.clock.now())));
  const current = project === undefined ? null : core.store.sessions.current(chatId, project);
  const sessionCost =
    current === null
      ? 0
      : core.store.runs
          .recent(chatId, 500)
          .filter((r) => r.sessionId === current.sessionId)
          .reduce((sum, r) => sum + (r.costUsd ?? 0), 0);
  return [
    `<b>Usage</b>`,
    `This session: ${formatUsd(sessionCost)}`,
    `Today (all chats): ${formatUsd(today.costUsd)} over ${today.runs} ${today.runs === 1 ? "run" : "runs"}`,
  ].join("\n");
}
