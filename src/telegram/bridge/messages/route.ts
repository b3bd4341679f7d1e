// Where a person's message goes once read, whatever it holds (words, photos, files, a voice
// note's words): the open decision it answers (a reply to its prompt, or any open one in the
// lane, or in the chat's one other project with one), else a run, continuing the session of the
// answer it replies to.
import type { ProjectConfig } from "../../../config/index.js";
import { definedFields, type Lane, type PermissionMode, type Prompt } from "../../../domain/index.js";
import { escapeTelegramHtml, parseSessionMark } from "../../../render/index.js";
import type { TypedWords } from "../../../policy/index.js";
import type { PendingDecisionView } from "../../../sessions/decisions/index.js";
import type { Requester, SessionChoice } from "../../../sessions/index.js";
import { mayAnswer, onlyTheirs, soleAnswerer } from "../answerers.js";
import { chatSettings, findProject } from "../chat-settings.js";
import { requesterOf, type IncomingText } from "../context.js";
import type { AnswerSession } from "../run-index.js";
import type { BridgeServices } from "../services.js";

export type RouteDeps = Pick<
  BridgeServices,
  "config" | "store" | "outbox" | "runs" | "prompts" | "answers" | "starter" | "logger" | "control"
>;

/**
 * What a message holds, in the two forms it can take. Each resolves to undefined when it was
 * refused (a file too big…): the person has been told, and nothing else happens.
 */
export type MessageContent = {
  /** The words an open decision gets: attachments are saved in `project` and named in them. */
  asAnswer(project: ProjectConfig): Promise<TypedWords | undefined>;
  /** What a run in `project` starts with: attachments inline where Claude can see them. */
  asPrompt(project: ProjectConfig): Promise<Prompt | undefined>;
};

/** Words as both forms: `text` answers, `prompt` (the words after what they quote) starts a run. */
export function wordsContent(text: string, prompt = text): MessageContent {
  return { asAnswer: () => Promise.resolve({ text }), asPrompt: () => Promise.resolve(prompt) };
}

export type RouteOverrides = { project?: string; mode?: PermissionMode };

export async function routeMessage(
  deps: RouteDeps,
  message: IncomingText,
  content: MessageContent,
  overrides: RouteOverrides = {},
): Promise<void> {
  const config = deps.config();
  const by = message.from.name;
  // Words already made for an answer that did not land (the decision closed meanwhile) start the run.
  let words: TypedWords | undefined;
  if (message.replyTo !== undefined) {
    const decisionId = deps.prompts.decisionAt(message.chatId, message.replyTo.messageId);
    if (decisionId !== undefined && deps.answers.verdictFor(decisionId) === "accepted") {
      const sole = soleAnswerer(deps, message.chatId, decisionId);
      if (sole !== undefined && sole.userId !== message.from.id) return notTheirs(deps, message, sole);
      const where =
        decisionProject(deps, message.chatId, decisionId) ?? chatSettings(config, deps.store, message.chatId).project;
      if (where !== undefined) {
        words = await content.asAnswer(where);
        if (words === undefined) return;
        if (deps.answers.answer(decisionId, { kind: "text", ...words, by }) === "accepted")
          return tookAnswer(deps, message);
      }
    }
  }
  let project =
    overrides.project === undefined
      ? chatSettings(config, deps.store, message.chatId).project
      : findProject(config, overrides.project);
  let choice: SessionChoice | undefined;
  const continued =
    message.replyTo?.fromBot === true ? answerSessionOf(deps, message.chatId, message.replyTo) : undefined;
  if (continued !== undefined && overrides.project === undefined) {
    project = findProject(config, continued.project) ?? project;
    choice = { kind: "resume", sessionId: continued.sessionId };
  }
  if (project === undefined) {
    void deps.outbox.send(
      message.chatId,
      { html: "No project is set up. Add a [projects.NAME] table with a path to the config, then send this again." },
      { replyTo: message.messageId },
    );
    return;
  }
  if (words === undefined && overrides.project === undefined && continued === undefined) {
    const waiting = projectForWords(deps, message, project);
    if (waiting === undefined) return;
    project = waiting;
  }
  const lane = { chatId: message.chatId, project: project.name };
  // Words answer what waits in the lane only when their sender may answer all of it; else they are a task.
  const pending = deps.answers.pendingFor(lane);
  if (words === undefined && pending.length > 0 && answerablePending(deps, message, lane).length === pending.length) {
    words = await content.asAnswer(project);
    if (words === undefined) return;
  }
  if (words !== undefined && deps.answers.answerByText(lane, words, by) === "accepted")
    return tookAnswer(deps, message);
  const prompt = words?.text ?? (await content.asPrompt(project));
  if (prompt === undefined) return;
  deps.starter.start({
    chatId: message.chatId,
    project,
    prompt,
    promptMessageId: message.messageId,
    requester: requesterOf(message.from),
    ...definedFields({ choice, mode: overrides.mode }),
  });
}

/**
 * Where a message that names no project goes: `project`, unless no decision waits there and one
 * does in another of the chat's projects (the words answer it, as they would in `project`).
 * Undefined when several others wait: the person is asked to reply to the question they answer.
 */
function projectForWords(deps: RouteDeps, message: IncomingText, project: ProjectConfig): ProjectConfig | undefined {
  const chatId = message.chatId;
  // Only what the sender may answer draws their words (telegram.group_approvals).
  const waiting = deps
    .config()
    .projects.filter((p) => answerablePending(deps, message, { chatId, project: p.name }).length > 0);
  if (waiting.length === 0 || waiting.some((p) => p.name === project.name)) return project;
  if (waiting.length === 1) return waiting[0];
  const names = escapeTelegramHtml(waiting.map((p) => p.name).join(" and "));
  const here = escapeTelegramHtml(project.name);
  void deps.outbox.send(
    chatId,
    {
      html: `Claude is waiting for your answer in ${names}. Reply to the question you are answering (swipe left on it); to give ${here} a new task, start the message with /${here}.`,
    },
    { replyTo: message.messageId },
  );
  return undefined;
}

/** The decisions waiting in `lane` that the message's sender may answer. */
function answerablePending(deps: RouteDeps, message: IncomingText, lane: Lane): readonly PendingDecisionView[] {
  return deps.answers
    .pendingFor(lane)
    .filter((view) => mayAnswer(deps, message.chatId, view.decisionId, message.from.id));
}

/** A reply to a decision only its requester may answer (answerers.ts), from someone else: said so. */
function notTheirs(deps: Pick<RouteDeps, "outbox">, message: IncomingText, sole: Requester): void {
  void deps.outbox.send(
    message.chatId,
    {
      html: `${escapeTelegramHtml(onlyTheirs(sole))}, so nothing went to Claude. To give Claude a task of your own, send it without replying.`,
    },
    { replyTo: message.messageId },
  );
}

/** The message's words answered a decision: an edit of it then cannot change what Claude was told. */
function tookAnswer(deps: Pick<RouteDeps, "prompts">, message: IncomingText): void {
  deps.prompts.tookTypedAnswer(message.chatId, message.messageId);
}

/** The project of the lane an open decision belongs to. */
function decisionProject(deps: RouteDeps, chatId: number, decisionId: string): ProjectConfig | undefined {
  return deps
    .config()
    .projects.find((p) =>
      deps.answers.pendingFor({ chatId, project: p.name }).some((view) => view.decisionId === decisionId),
    );
}

/** The session a final answer belongs to: remembered, else read from its footer's session mark. */
function answerSessionOf(
  deps: Pick<RouteDeps, "runs" | "store">,
  chatId: number,
  target: NonNullable<IncomingText["replyTo"]>,
): AnswerSession | undefined {
  const known = deps.runs.answerSession(chatId, target.messageId);
  if (known !== undefined) return known;
  const prefix = parseSessionMark(target.text);
  if (prefix === undefined) return undefined;
  const record = deps.store.sessions.list(chatId, { limit: 200 }).find((s) => s.sessionId.startsWith(prefix));
  return record === undefined ? undefined : { sessionId: record.sessionId, project: record.project };
}
