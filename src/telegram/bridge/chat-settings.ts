// A chat's effective settings: its stored preferences over the config's defaults (project,
// mode, model, effort, previews, questions, listen-to-all), and the one way to change them. A
// group member's own conversation (telegram.group_sessions) listens as its group does.
import type { Config, ProjectConfig } from "../../config/index.js";
import { isInnerChatId, type PermissionMode } from "../../domain/index.js";
import type { Store } from "../../store/index.js";

export type ChatSettings = {
  /** Undefined only when the config has no projects at all. */
  project: ProjectConfig | undefined;
  mode: PermissionMode;
  /** Undefined: the config's (or the CLI's) default. */
  model: string | undefined;
  effort: string | undefined;
  preview: boolean;
  questions: boolean;
  listenToAll: boolean;
};

export function chatSettings(config: Config, store: Store, chatId: number): ChatSettings {
  const prefs = store.chats.get(chatId);
  const listening = listeningChat(store, chatId);
  const project = config.projects.find((p) => p.name === prefs.project) ?? config.defaultProject ?? undefined;
  return {
    project,
    mode: prefs.mode ?? config.claude.permissionMode,
    model: prefs.model ?? config.claude.model ?? undefined,
    effort: prefs.effort ?? config.claude.effort ?? undefined,
    preview: prefs.preview,
    questions: prefs.questions,
    listenToAll: listening === chatId ? prefs.listenToAll : store.chats.get(listening).listenToAll,
  };
}

/**
 * The chat whose /listen counts for `chatId`: which messages the bot answers in a group is the
 * group's to say, also in a member's own conversation there; any other chat's is its own.
 */
export function listeningChat(store: Pick<Store, "chats">, chatId: number): number {
  return isInnerChatId(chatId) ? (store.chats.memberChatById(chatId)?.parentChatId ?? chatId) : chatId;
}

export function findProject(config: Config, name: string): ProjectConfig | undefined {
  const lower = name.toLowerCase();
  return config.projects.find((p) => p.name.toLowerCase() === lower);
}

/** The chat's switches the decision driver reads on top of the config's (previews, questions). */
export function chatDecisionSettings(
  config: Config,
  store: Store,
  chatId: number,
): { previewChanges: boolean; questionsEnabled: boolean } {
  const settings = chatSettings(config, store, chatId);
  return { previewChanges: settings.preview, questionsEnabled: settings.questions };
}
