// Shows a run's progress on stderr: on a TTY, finished lines scroll above one live status
// line (elapsed, current tool, latest note) that is redrawn in place; otherwise plain lines.
// Text comes from src/render; this file owns only the cursor handling and the status.
import { excerpt, formatDurationMs } from "../domain/index.js";
import type { TelecodeEvent } from "../domain/index.js";
import { renderTerminalLine } from "../render/index.js";

export type ProgressViewOptions = {
  out: NodeJS.WritableStream;
  /** Redraw a status line in place (the stream is a TTY). */
  live: boolean;
  now(): number;
  /** Terminal width for the status line; default 100. */
  columns?: number;
};

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\x1b[2K";

export class ProgressView {
  readonly #options: ProgressViewOptions;
  readonly #startedAt: number;
  readonly #tools = new Map<string, string>();
  #note = "";
  #tick = 0;
  #statusShown = false;
  #paused = false;

  constructor(options: ProgressViewOptions) {
    this.#options = options;
    this.#startedAt = options.now();
  }

  /** Prints what the event says (if anything) and updates the status line. */
  show(event: TelecodeEvent): void {
    switch (event.type) {
      case "tool_started":
        this.#tools.set(
          event.toolUseId,
          event.kind === "command" ? `${event.name} \`${event.title}\`` : `${event.name} ${event.title}`,
        );
        break;
      case "tool_finished":
        this.#tools.delete(event.toolUseId);
        break;
      case "note":
        this.#note = event.text;
        break;
      case "turn_finished":
      case "run_completed":
        this.#tools.clear();
        break;
      default:
        break;
    }
    // The answer itself goes to stdout; in the progress it would be printed twice.
    if (event.type === "run_completed") return;
    const text = renderTerminalLine(event, { showThinking: false });
    if (text !== undefined) this.print(text);
  }

  /** Prints lines above the status line. */
  print(text: string): void {
    this.#clearStatus();
    this.#options.out.write(`${text}\n`);
    this.#drawStatus();
  }

  /** Redraws the status (call about once a second on a TTY so elapsed time moves). */
  refresh(): void {
    this.#tick += 1;
    this.#clearStatus();
    this.#drawStatus();
  }

  /** Hides the status while someone types an answer at the terminal. */
  pause(): void {
    this.#clearStatus();
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#drawStatus();
  }

  /** Removes the status line for good (before the answer is printed). */
  finish(): void {
    this.#clearStatus();
    this.#paused = true;
  }

  statusText(): string {
    const elapsed = formatDurationMs(this.#options.now() - this.#startedAt);
    const tools = [...this.#tools.values()];
    const doing = tools.length > 0 ? (tools[tools.length - 1] ?? "") : "thinking";
    const note = this.#note === "" ? "" : ` · ${this.#note}`;
    return `${SPINNER[this.#tick % SPINNER.length] ?? ""} ${elapsed} · ${doing}${note}`;
  }

  #drawStatus(): void {
    if (!this.#options.live || this.#paused) return;
    const width = Math.max(20, (this.#options.columns ?? 100) - 1);
    this.#options.out.write(excerpt(this.statusText().replace(/\s*\n\s*/g, " "), width));
    this.#statusShown = true;
  }

  #clearStatus(): void {
    if (!this.#statusShown) return;
    this.#options.out.write(CLEAR_LINE);
    this.#statusShown = false;
  }
}
