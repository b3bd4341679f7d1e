// Shows a run's progress on stderr: on a TTY, finished lines scroll above one bottom line that
// is redrawn in place: the live status (elapsed, current tool, latest note), or, while a prompt
// waits, the person's input line. Text comes from src/render; this file owns the cursor.
import { formatDurationMs, relativeToCwd } from "../domain/index.js";
import type { ApprovalRequest, TelecodeEvent } from "../domain/index.js";
import { fitColumns, renderTerminalLine, TurnSteps } from "../render/index.js";

export type ProgressViewOptions = {
  out: NodeJS.WritableStream;
  /** Redraw a status line in place (the stream is a TTY). */
  live: boolean;
  now(): number;
  /** The terminal's width now (it may be resized while a run goes on); default 100. */
  columns?: () => number | undefined;
  /** The answer is printed on stdout: the text that turns out to be it is not printed here too. */
  answerOnStdout?: boolean;
  /** The project directory: paths under it are shown relative to it, from the first line on. */
  cwd?: string;
  /** The caller prints a failed run's error last: a failed turn's line does not say it too. */
  failureSaidAfter?: boolean;
};

/** The bottom line while a prompt waits for typed input; owned by the input reader. */
export type InputLine = {
  /** A prompt is open: the bottom line belongs to the input, not to the status. */
  isActive(): boolean;
  /** Draws the input line; the cursor is at the start of an empty line. */
  draw(): void;
  /** Erases what draw() drew, leaving the cursor at the start of that line. */
  clear(): void;
};

/** Tools whose call is the question or plan itself: the prompt (or its outcome) tells it. */
const DECISION_TOOLS = new Set(["AskUserQuestion", "ExitPlanMode"]);

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\x1b[2K";

export class ProgressView {
  readonly #o: ProgressViewOptions;
  readonly #startedAt: number;
  readonly #tools = new Map<string, string>();
  /** Requests shown as prompts: the prompt prints their outcome, the event line would repeat it. */
  readonly #prompted = new Set<string>();
  /** The tool call each approval request is about (from approval_requested). */
  readonly #toolOfRequest = new Map<string, string>();
  readonly #steps = new TurnSteps();
  /** Assistant text not printed yet: it may turn out to be the answer, which stdout shows. */
  #heldText: string[] = [];
  #input: InputLine | undefined;
  #note = "";
  /** The plan's line last printed: an update that leaves it as it was prints nothing. */
  #planLine: string | undefined;
  #tick = 0;
  #bottom: "none" | "status" | "input" = "none";
  #finished = false;

  constructor(options: ProgressViewOptions) {
    this.#o = options;
    this.#startedAt = options.now();
  }

  /** The input reader that takes the bottom line while a prompt waits. */
  attachInput(input: InputLine): void {
    this.#input = input;
  }

  /**
   * The CLI asks about a tool call (told before any prompt for it, which may come before the
   * events of that call are shown: the call's own line is then left out, the prompt shows it).
   */
  approvalArrived(request: ApprovalRequest): void {
    if (request.toolUseId !== undefined) this.#toolOfRequest.set(request.requestId, request.toolUseId);
  }

  /** The prompt for approval request `requestId` is shown to the person. */
  promptShown(requestId: string): void {
    this.#prompted.add(requestId);
  }

  /** Prints what the event says (if anything) and updates the status line. */
  show(event: TelecodeEvent): void {
    this.#track(event);
    if (event.type === "text" && event.parentToolUseId === null && this.#o.answerOnStdout === true) {
      this.#heldText.push(event.text);
      return;
    }
    if (event.type === "turn_finished" && event.ok && !event.interrupted && this.#o.answerOnStdout === true) {
      // The answer is printed on stdout; the rest of the held text is shown after all.
      this.#heldText = this.#heldText.filter((text) => !event.answer.includes(text.trim()));
    }
    if (event.type !== "usage") this.#printHeldText();
    // The answer itself goes to stdout; in the progress it would be printed twice.
    if (event.type === "run_completed" || this.#isShownElsewhere(event)) return;
    const text = renderTerminalLine(event, {
      showThinking: false,
      steps: this.#steps.count,
      failureSaidAfter: this.#o.failureSaidAfter === true,
      // The person matches an approval line to its prompt by where it is, not by an id.
      requestIds: false,
      ...(this.#o.cwd === undefined ? {} : { cwd: this.#o.cwd }),
    });
    if (text === undefined) return;
    if (event.type === "checklist") {
      if (text === this.#planLine) return;
      this.#planLine = text;
    }
    this.print(text);
  }

  /** Prints lines above the bottom line. */
  print(text: string): void {
    this.#clearBottom();
    this.#o.out.write(`${text}\n`);
    this.#drawBottom();
  }

  /** Redraws the status (call about once a second on a TTY so elapsed time moves). */
  refresh(): void {
    this.#tick += 1;
    if (this.#bottom === "input") return;
    this.#clearBottom();
    this.#drawBottom();
  }

  /** Removes the bottom line for good (before the answer is printed). */
  finish(): void {
    this.#printHeldText();
    this.#clearBottom();
    this.#finished = true;
  }

  statusText(): string {
    const elapsed = formatDurationMs(this.#o.now() - this.#startedAt);
    const tools = [...this.#tools.values()];
    const doing = tools.length > 0 ? (tools[tools.length - 1] ?? "") : "thinking";
    const note = this.#note === "" ? "" : ` · ${this.#note}`;
    return `${SPINNER[this.#tick % SPINNER.length] ?? ""} ${elapsed} · ${doing}${note}`;
  }

  #track(event: TelecodeEvent): void {
    this.#steps.observe(event);
    switch (event.type) {
      case "tool_started": {
        const title = relativeToCwd(event.title, this.#o.cwd);
        const label = title === event.name || title === "" ? event.name : `${event.name} ${title}`;
        this.#tools.set(event.toolUseId, event.kind === "command" ? `${event.name} \`${title}\`` : label);
        break;
      }
      case "tool_finished":
        this.#tools.delete(event.toolUseId);
        break;
      case "note":
        this.#note = event.text;
        break;
      case "approval_requested":
        this.approvalArrived(event.request);
        break;
      case "turn_finished":
      case "run_completed":
        this.#tools.clear();
        break;
      default:
        break;
    }
  }

  /** Events a prompt (or its outcome line) already shows, or that need no line of their own. */
  #isShownElsewhere(event: TelecodeEvent): boolean {
    switch (event.type) {
      case "approval_requested":
        // Asked: the prompt shows it; not asked: the approval_resolved line says what happened.
        return true;
      case "approval_resolved":
      case "approval_withdrawn":
        // The prompt's own outcome line says it ("→ No longer pending").
        return this.#prompted.has(event.requestId);
      case "tool_started":
        return DECISION_TOOLS.has(event.name) || this.#wasPrompted(event.toolUseId);
      case "tool_finished":
        return DECISION_TOOLS.has(event.name) && this.#wasPrompted(event.toolUseId);
      default:
        return false;
    }
  }

  #wasPrompted(toolUseId: string): boolean {
    for (const [requestId, tool] of this.#toolOfRequest)
      if (tool === toolUseId && this.#prompted.has(requestId)) return true;
    return false;
  }

  #printHeldText(): void {
    const held = this.#heldText;
    this.#heldText = [];
    for (const text of held) this.print(text);
  }

  #drawBottom(): void {
    if (!this.#o.live || this.#finished) return;
    if (this.#input?.isActive() === true) {
      this.#input.draw();
      this.#bottom = "input";
      return;
    }
    // One column short of the width, measured as the terminal draws it: a wrapped status line
    // would leave its first row behind at every redraw.
    const width = Math.max(20, (this.#o.columns?.() ?? 100) - 1);
    this.#o.out.write(fitColumns(this.statusText().replace(/\s*\n\s*/g, " "), width));
    this.#bottom = "status";
  }

  #clearBottom(): void {
    if (this.#bottom === "status") this.#o.out.write(CLEAR_LINE);
    else if (this.#bottom === "input") this.#input?.clear();
    this.#bottom = "none";
  }
}
