// Drives one `telecode run` session to its end: the prompt in, events shown, the answer out,
// and the exit code the shell gets. Ctrl-C is read as a person means it (the first cancels the
// run; another, or one once the run is over, ends the CLI at once); SIGTERM and SIGHUP end the
// CLI with the command; a reader that quits (`| head`) ends nothing badly, and output that
// cannot be written (a full disk) is said and fails the command.
import { constants as osConstants } from "node:os";
import { awaitSayingEndHooks } from "../claude/index.js";
import type { SessionController, SessionHandle } from "../claude/index.js";
import type { Clock, TimerHandle } from "../ports/index.js";
import type { Prompt, RunCompleted, WrittenDown } from "../domain/index.js";
import type { ProgressView, Resumable, TypedAnswers } from "../terminal/index.js";
import { takeLostOutput, type CommandIo } from "./command-io.js";

/** Said on stderr when the command waits on Claude Code's SessionEnd hooks after the answer. */
const END_HOOKS_LINE =
  "Claude Code is running its SessionEnd hooks; telecode run ends when they are done (Ctrl-C cuts them short).\n";
/** Said when Ctrl-C ended the CLI in the middle of those hooks. */
const HOOKS_CUT_LINE = "^C Claude Code's SessionEnd hooks were cut short.\n";

/** Said when stdout's reader quit while the run went on. */
const OUTPUT_CLOSED_LINE =
  "telecode run: the output was closed before the run ended (its reader quit), so the run was cancelled.\n";
/** Said when writing to stdout failed (a full disk) while the run went on. */
const outputFailedLine = (why: string): string =>
  `telecode run: the output could not be written (${why}), so the run was cancelled.\n`;

/**
 * Signals that end the command (the terminal closed; `timeout`, `kill`): without a handler Node
 * would exit at once and leave Claude Code running, unattended and unswept.
 */
const TERMINATIONS = ["SIGTERM", "SIGHUP"] as const;
type Termination = (typeof TERMINATIONS)[number];

/** The terminal's side of a run: the progress view, the controller behind it, typed answers. */
export type TerminalUi = { view: ProgressView; controller: SessionController; typed: TypedAnswers | undefined };

/** Runs `prompt` in `session`, shows it, closes the session; returns the exit code. */
export async function drive(
  session: SessionHandle,
  options: { json: boolean; cwd: string },
  prompt: Prompt,
  io: CommandIo,
  how: {
    clock: Clock;
    ui: Promise<TerminalUi>;
    unattended: boolean;
    /** Where SIGINT (Ctrl-C), SIGTERM and SIGHUP arrive. */
    signals: NodeJS.EventEmitter;
    live: boolean;
    /** What the CLI wrote down of a session, for the hint after a failure. */
    writtenDown: (sessionId: string) => Promise<WrittenDown>;
  },
): Promise<number> {
  let ui: TerminalUi | undefined;
  /** The session --resume can go on with: only one the CLI wrote a message of down. */
  const resumable = async ({ sessionId }: RunCompleted): Promise<Resumable | undefined> =>
    sessionId !== undefined && (await how.writtenDown(sessionId)) !== "nothing"
      ? { sessionId, ...(options.cwd === process.cwd() ? {} : { cwd: options.cwd }) }
      : undefined;
  let interrupted = false;
  /** Set once the run is over and the CLI winds down: a Ctrl-C then ends it at once, as a second one does. */
  let windingDown = false;
  /** A Ctrl-C ended the CLI at once (in the middle of its SessionEnd hooks when it ran any). */
  let endedNow: "hooks" | "process" | undefined;
  /** The command itself was told to end: the terminal closed, or `timeout` ran out. */
  let terminatedBy: Termination | undefined;
  let runId: string | undefined;
  const cancelling = "^C cancelling… (Ctrl-C again to stop at once)";
  const endAtOnce = (): void => {
    session.endNow();
    void session.close();
  };
  const onInterrupt = (): void => {
    if (interrupted || windingDown) {
      // A second Ctrl-C, or one once the run is over: the CLI is ended now, not waited for.
      endedNow ??= session.runsEndHook ? "hooks" : "process";
      endAtOnce();
      return;
    }
    interrupted = true;
    ui?.view.print(cancelling);
    if (runId !== undefined) void session.cancelRun(runId);
  };
  // Node passes a signal's listeners its name.
  const onTermination = (signal: Termination): void => {
    terminatedBy ??= signal;
    endAtOnce();
  };
  how.signals.on("SIGINT", onInterrupt);
  for (const signal of TERMINATIONS) how.signals.on(signal, onTermination);
  let ticker: TimerHandle | undefined;

  let completed: RunCompleted | undefined;
  /**
   * Stdout's reader quit (`telecode run … | head`) or its disk is full: the error must not crash
   * the command, nothing more is written there, and a run still going is cancelled, since nobody
   * reads what it does. What was lost to a failed write (not a reader's leaving) makes it fail.
   */
  let outputClosed: "during the run" | "after it" | undefined;
  const onOutputError = (): void => {
    if (outputClosed !== undefined) return;
    outputClosed = completed === undefined ? "during the run" : "after it";
    if (outputClosed === "during the run" && runId !== undefined) void session.cancelRun(runId);
  };
  // The listener stays for as long as the process lives: a write's error may come after the
  // command has returned. (A closed stderr's writes are let go: see outliveClosedOutput.)
  io.stdout.on("error", onOutputError);
  /** The answer to print: the run finished, nobody cancelled it, and events are not printed as JSON. */
  let answer: string | undefined;
  try {
    // The prompt goes to the CLI first; the terminal's view finishes loading while it starts.
    runId = await session.startRun(prompt, { unattended: how.unattended });
    if (interrupted) await session.cancelRun(runId);
    ui = await how.ui;
    const { view, typed } = ui;
    if (interrupted) view.print(cancelling);
    typed?.onInterrupt(onInterrupt);
    typed?.onInputEnded(() => {
      view.print("The input ended, so nobody can answer this prompt: cancelling the run.");
      if (runId !== undefined) void session.cancelRun(runId);
    });
    // The live status line's elapsed time moves once a second while nothing else happens.
    const tick = (): void => {
      view.refresh();
      ticker = how.clock.setTimer(1000, tick);
    };
    if (how.live) ticker = how.clock.setTimer(1000, tick);
    for await (const event of session.events()) {
      if (options.json && outputClosed === undefined) io.stdout.write(`${JSON.stringify(event)}\n`);
      view.show(event);
      if (event.type === "run_completed" && event.runId === runId) {
        completed = event;
        if (!options.json && !interrupted && event.ok && !event.cancelled) answer = event.answer;
        break;
      }
    }
  } finally {
    ticker?.cancel();
    // Loaded even when the run could not start: the typed-answer reader must let stdin go.
    const loaded = ui ?? (await how.ui.catch(() => undefined));
    loaded?.typed?.close();
    loaded?.view.finish();
    // The answer is out before the CLI winds down: its exit waits on SessionEnd hooks (up to a minute).
    if (answer !== undefined) io.stdout.write(answer.endsWith("\n") ? answer : `${answer}\n`);
    const say = (): void => void io.stderr.write(END_HOOKS_LINE);
    windingDown = true;
    try {
      await awaitSayingEndHooks(session.close(), () => session.runsEndHook, how.clock, say);
    } finally {
      how.signals.off("SIGINT", onInterrupt);
      for (const signal of TERMINATIONS) how.signals.off(signal, onTermination);
    }
  }

  if (terminatedBy !== undefined) {
    io.stderr.write(`telecode run: ended by ${terminatedBy}, and Claude Code with it.\n`);
    return 128 + osConstants.signals[terminatedBy];
  }
  if (endedNow !== undefined) {
    io.stderr.write(endedNow === "hooks" ? HOOKS_CUT_LINE : "^C stopped Claude Code at once.\n");
    return 130;
  }
  const lost = takeLostOutput(io.stdout);
  if (outputClosed === "during the run" && !(completed?.ok === true && !completed.cancelled)) {
    // Unless it finished before the cancel reached it.
    io.stderr.write(lost === undefined ? OUTPUT_CLOSED_LINE : outputFailedLine(lost));
    return 1;
  }
  if (lost !== undefined) {
    const what = answer === undefined ? "the output could not all be written" : "the answer could not be written";
    const { resumeHint } = await import("../terminal/index.js");
    const again = completed === undefined ? "" : ` ${resumeHint(await resumable(completed))}`;
    io.stderr.write(`telecode run: ${what} (${lost}).${again}\n`);
    return 1;
  }
  if (answer !== undefined) return 0;
  if (interrupted) {
    io.stderr.write("cancelled.\n");
    return 130;
  }
  if (completed === undefined) {
    io.stderr.write("telecode run: the session ended without finishing the run.\n");
    return 1;
  }
  if (completed.cancelled) {
    io.stderr.write("cancelled.\n");
    return 1;
  }
  if (!completed.ok) {
    // Loaded with the terminal's view, off the way to the CLI's spawn.
    const { terminalFailureText } = await import("../terminal/index.js");
    const why =
      completed.error === undefined
        ? "the run failed"
        : terminalFailureText(completed.error, await resumable(completed));
    io.stderr.write(`error: ${why}\n`);
    return 1;
  }
  return 0;
}
