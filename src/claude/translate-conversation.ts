// The conversation part of the translation: assistant content blocks (text, thinking,
// tool_use) and user lines (tool results, local-command echoes) to events, with the tool
// calls remembered for their results, the session's task list, the turn's last main-thread
// text, usage and model, and the note for a file the API refused (said once the turn goes on).
import { describeTool } from "../domain/index.js";
import type { ChecklistItem, NoteEmitted, TelecodeEvent, ToolKind } from "../domain/index.js";
import { readBlock } from "../wire/index.js";
import type {
  WireAssistantMessage,
  WireContentBlock,
  WireToolResultBlock,
  WireUsage,
  WireUserMessage,
} from "../wire/index.js";
import { mediaRemovedText } from "./api-error-kinds.js";
import { TaskList } from "./task-list.js";
import { localCommandNote, resultDetail } from "./translate-blocks.js";

/** Tool calls remembered for their result; older ones are forgotten beyond this. */
const MAX_TRACKED_TOOLS = 10_000;

type TrackedTool = { name: string; kind: ToolKind; title: string };

export class ConversationTranslator {
  readonly #tools = new Map<string, TrackedTool>();
  readonly #tasks = new TaskList();
  /** The last main-thread text of the turn ("" if none). */
  lastText = "";
  /** Usage of the last main-thread assistant message (its context size), if any. */
  lastUsage: WireUsage | undefined;
  /** The model of that message. */
  lastModel: string | undefined;
  /** API messages whose tokens were reported this turn (the CLI prints one line per content block). */
  readonly #counted = new Set<string>();
  /**
   * A file the API refused, which Claude Code left out before trying again: said once the turn
   * goes on without it (a failed turn's result repeats the refusal as its error instead).
   */
  #leftOut: NoteEmitted | undefined;

  /** A new turn: what the last turn said no longer counts. */
  startTurn(): void {
    this.#leftOut = undefined;
    this.lastText = "";
    this.lastUsage = undefined;
    this.lastModel = undefined;
    this.#counted.clear();
  }

  /** The session's plan as it stood before this process, unless this process has seen one already. */
  recallPlan(recalled: () => readonly ChecklistItem[] | undefined): void {
    this.#tasks.recall(recalled);
  }

  /** The plan, when it changed since the last call: for the session book. */
  takeChangedPlan(): readonly ChecklistItem[] | undefined {
    return this.#tasks.takeChanged();
  }

  /** The plan, for a turn that starts while some of it is still to do. */
  openChecklist(out: TelecodeEvent[]): void {
    const items = this.#tasks.open;
    if (items !== undefined) out.push({ type: "checklist", items });
  }

  assistant(m: WireAssistantMessage, out: TelecodeEvent[]): void {
    const parent = m.parent_tool_use_id;
    if (m.is_api_error_message === true) {
      // The synthetic API-error message repeats what the result reports as the error, but for a
      // file the API refused: the CLI leaves it out and tries again, and the turn may go on.
      if (m.api_error === "media_removed")
        this.#leftOut = {
          type: "note",
          kind: "warning",
          text: mediaRemovedText(m.api_error_params),
          key: "media_removed",
        };
      return;
    }
    this.turnGoesOn(out);
    if (parent === null) {
      const usage = m.message.usage;
      if (typeof usage === "object" && usage !== null) {
        this.lastUsage = usage;
        this.lastModel = typeof m.message.model === "string" ? m.message.model : undefined;
      }
    }
    this.#stepUsage(m, out);
    for (const block of m.message.content) this.#assistantBlock(block, parent, out);
  }

  /** The turn went on (an answer came, or it finished well): a file left out before it is said now. */
  turnGoesOn(out: TelecodeEvent[]): void {
    if (this.#leftOut === undefined) return;
    out.push(this.#leftOut);
    this.#leftOut = undefined;
  }

  /** The tokens of each API message once, when its first line comes. */
  #stepUsage(m: WireAssistantMessage, out: TelecodeEvent[]): void {
    const { id, usage, model } = m.message;
    if (typeof id !== "string" || typeof usage !== "object" || usage === null || this.#counted.has(id)) return;
    this.#counted.add(id);
    const count = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);
    out.push({
      type: "step_usage",
      model: typeof model === "string" ? model : "",
      inputTokens: count(usage.input_tokens),
      cacheReadTokens: count(usage.cache_read_input_tokens),
      cacheWriteTokens: count(usage.cache_creation_input_tokens),
      outputTokens: count(usage.output_tokens),
      parentToolUseId: m.parent_tool_use_id,
    });
  }

  user(m: WireUserMessage, out: TelecodeEvent[]): void {
    const content = m.message.content;
    if (typeof content === "string") {
      pushNote(content, out);
      return;
    }
    // The CLI's structured result belongs to the line's one tool result.
    const output = content.length === 1 ? m.tool_use_result : undefined;
    for (const block of content) {
      const read = readBlock(block);
      if (read?.type === "tool_result") this.#toolResult(read, output, m.parent_tool_use_id, out);
      else if (read?.type === "text") pushNote(read.text, out);
    }
  }

  #assistantBlock(content: WireContentBlock, parent: string | null, out: TelecodeEvent[]): void {
    const block = readBlock(content);
    switch (block?.type) {
      case "text":
        if (block.text === "") return;
        if (parent === null) this.lastText = block.text;
        out.push({ type: "text", text: block.text, parentToolUseId: parent });
        return;
      case "thinking":
        if (block.thinking !== "") out.push({ type: "thinking", text: block.thinking, parentToolUseId: parent });
        return;
      case "tool_use": {
        const { id, name, input } = block;
        // The plan is the main thread's: a subagent's task ids may be of a list of its own.
        const main = parent === null;
        const { kind, title } = main ? describeTool(name, input, this.#tasks.subjectOf) : describeTool(name, input);
        this.#track(id, { name, kind, title });
        if (main) this.#tasks.called(id, name, input);
        out.push({ type: "tool_started", toolUseId: id, name, kind, title, input, parentToolUseId: parent });
        return;
      }
      case "tool_result":
      case undefined:
        return;
    }
  }

  #track(id: string, tool: TrackedTool): void {
    if (this.#tools.size >= MAX_TRACKED_TOOLS) {
      const oldest = this.#tools.keys().next();
      if (oldest.done !== true) this.#tools.delete(oldest.value);
    }
    this.#tools.set(id, tool);
  }

  #toolResult(block: WireToolResultBlock, output: unknown, parent: string | null, out: TelecodeEvent[]): void {
    const id = block.tool_use_id;
    const tool = this.#tools.get(id);
    if (tool !== undefined) this.#tools.delete(id);
    const detail = resultDetail(block.content);
    const ok = block.is_error !== true;
    const listed = tool === undefined ? undefined : this.#tasks.resulted(id, !ok, output, detail);
    out.push({
      type: "tool_finished",
      toolUseId: id,
      name: tool?.name ?? "unknown",
      kind: tool?.kind ?? "tool",
      title: tool?.title ?? "unknown tool",
      ok: ok && listed?.failure === undefined,
      detail: listed?.failure ?? detail,
      parentToolUseId: parent,
    });
    if (listed?.items !== undefined) out.push({ type: "checklist", items: listed.items });
  }
}

function pushNote(text: string, out: TelecodeEvent[]): void {
  const note = localCommandNote(text);
  if (note !== undefined) out.push(note);
}
