// Watches a busy session's stdout for silence: a stall note after a while (longer while a tool
// runs), and a hard ceiling that ends the process. While the CLI waits for an answer of ours (a
// person may take hours over an approval), its silence does not count. Timers are lazy (one
// check per threshold, not one reset per line, and a check still pending when a turn ends serves
// the next turn), so watching costs nothing on a fast stream. Silence is counted in awake time:
// while the computer sleeps, Claude Code sleeps too, and a laptop opened in the morning is no
// reason to stop the run it left.
import type { Clock, TimerHandle } from "../ports/index.js";

export type SilenceWatchOptions = {
  clock: Clock;
  stallNoteMs: number;
  hardSilenceMs: number;
  /** The stall threshold is multiplied by this while `isToolRunning()` (a long Bash is normal). */
  toolFactor: number;
  isToolRunning(): boolean;
  /** The CLI waits for an answer of ours (an approval, a question): its silence is not a stall. */
  isAwaitingAnswer(): boolean;
  onStall(silentMs: number): void;
  onHardSilence(silentMs: number): void;
};

export class SilenceWatch {
  readonly #options: SilenceWatchOptions;
  #active = false;
  #paused = false;
  #lastOutputAt = 0;
  /** A line's time was taken in the code running now: the lines after it in the same read share it. */
  #stamped = false;
  readonly #unstamp = (): void => {
    this.#stamped = false;
  };
  #notedFor = -1;
  #stallTimer: TimerHandle | undefined;
  #hardTimer: TimerHandle | undefined;

  constructor(options: SilenceWatchOptions) {
    this.#options = options;
  }

  /**
   * Output arrived (call per line; cheap): the clock is read once for the lines handled in one go
   * (one read of stdout), which arrived together; a microtask lets the next read take it again.
   */
  activity(): void {
    if (this.#stamped) return;
    this.#stamped = true;
    this.#silentFromNow();
    queueMicrotask(this.#unstamp);
  }

  #silentFromNow(): void {
    this.#lastOutputAt = this.#options.clock.awakeMs();
  }

  /** Starts watching (a turn is in flight). Idempotent. */
  start(): void {
    if (this.#active) return;
    this.#active = true;
    this.#silentFromNow();
    // A check armed for an earlier turn is still due: it measures the silence from this turn's output.
    if (this.#stallTimer === undefined) this.#scheduleStall(this.#stallThreshold());
    if (this.#hardTimer === undefined) this.#scheduleHard(this.#options.hardSilenceMs);
  }

  /** Stops watching until the next start: a check still pending lapses when it comes due. */
  stop(): void {
    this.#active = false;
  }

  /** Stops watching for good: pending checks are cancelled. */
  dispose(): void {
    this.#active = false;
    this.#stallTimer?.cancel();
    this.#hardTimer?.cancel();
    this.#stallTimer = undefined;
    this.#hardTimer = undefined;
  }

  /** While we stop reading stdout ourselves (slow consumer), the CLI is not silent. */
  setPaused(paused: boolean): void {
    this.#paused = paused;
    this.#silentFromNow();
  }

  #stallThreshold(): number {
    return this.#options.isToolRunning()
      ? this.#options.stallNoteMs * this.#options.toolFactor
      : this.#options.stallNoteMs;
  }

  #silentMs(): number {
    if (this.#paused || this.#options.isAwaitingAnswer()) this.#silentFromNow();
    return this.#options.clock.awakeMs() - this.#lastOutputAt;
  }

  #scheduleStall(ms: number): void {
    if (this.#options.stallNoteMs <= 0) return;
    this.#stallTimer = this.#options.clock.setTimer(Math.max(1, ms), () => {
      this.#stallTimer = undefined;
      if (!this.#active) return;
      const silent = this.#silentMs();
      const threshold = this.#stallThreshold();
      if (silent >= threshold && this.#notedFor !== this.#lastOutputAt) {
        this.#notedFor = this.#lastOutputAt;
        this.#options.onStall(silent);
        this.#scheduleStall(threshold);
      } else {
        this.#scheduleStall(silent >= threshold ? threshold : threshold - silent);
      }
    });
  }

  #scheduleHard(ms: number): void {
    if (this.#options.hardSilenceMs <= 0) return;
    this.#hardTimer = this.#options.clock.setTimer(Math.max(1, ms), () => {
      this.#hardTimer = undefined;
      if (!this.#active) return;
      const silent = this.#silentMs();
      if (silent >= this.#options.hardSilenceMs) {
        this.dispose();
        this.#options.onHardSilence(silent);
      } else {
        this.#scheduleHard(this.#options.hardSilenceMs - silent);
      }
    });
  }
}
