// Asks the person at the terminal about one approval at a time: shows the tool and its input
// (the command, the file, a short diff for Edit/Write, the options of a question) and reads
// the answer from a line of input. Behind the small `TerminalApprover` interface so a policy
// controller can use it as its "person" port.
import { createInterface, type Interface } from "node:readline";
import type { ApprovalRequest } from "../domain/index.js";
import type { ApprovalDecision } from "../claude/index.js";
import { describeApproval } from "./approval-details.js";

export type TerminalApprover = {
  /** Shows the request and resolves with the person's decision; rejects if `signal` aborts first. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
  close(): void;
};

export type TerminalApproverOptions = {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Called around each question so a live status line can step aside. */
  onPromptStart?(): void;
  onPromptEnd?(): void;
};

export const DENIED_AT_TERMINAL = "The person at the terminal denied this; continue without it.";

export function createTerminalApprover(options: TerminalApproverOptions): TerminalApprover {
  let rl: Interface | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  // Lines typed before a question is on screen are kept (type-ahead), in order.
  const typed: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  const reader = (): Interface => {
    if (rl === undefined) {
      rl = createInterface({ input: options.input, terminal: false });
      rl.on("line", (line) => {
        const take = waiting;
        waiting = undefined;
        if (take !== undefined) take(line);
        else typed.push(line);
      });
    }
    return rl;
  };

  /** One line of input, or a rejection when the signal aborts. */
  const question = (prompt: string, signal: AbortSignal): Promise<string> =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new Error("withdrawn"));
      reader();
      options.output.write(prompt);
      const early = typed.shift();
      if (early !== undefined) return resolve(early.trim());
      const onAbort = (): void => {
        waiting = undefined;
        options.output.write("\n(withdrawn by Claude Code)\n");
        reject(new Error("withdrawn"));
      };
      waiting = (line) => {
        signal.removeEventListener("abort", onAbort);
        resolve(line.trim());
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });

  const askOne = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    // Withdrawn while waiting its turn: never shown.
    if (signal.aborted) throw new Error("withdrawn");
    options.onPromptStart?.();
    try {
      options.output.write(`\n${describeApproval(request)}\n`);
      const questions = request.input["questions"];
      if (request.toolName === "AskUserQuestion" && Array.isArray(questions)) {
        const answers: Record<string, string> = {};
        for (const q of questions as { question?: unknown; options?: { label?: unknown }[] }[]) {
          const labels = (q.options ?? []).map((o) => String(o.label));
          const answer = await question(`Answer (1-${labels.length}, or type an answer): `, signal);
          const picked = labels[Number(answer) - 1];
          answers[String(q.question)] = picked ?? answer;
        }
        return { behavior: "allow", updatedInput: { ...request.input, answers }, by: "terminal" };
      }
      const answer = (await question("Allow? [y/N, or n: reason] ", signal)).toLowerCase();
      if (answer === "y" || answer === "yes") return { behavior: "allow", updatedInput: { ...request.input }, by: "terminal" };
      const reason = /^no?\s*:\s*(.+)$/i.exec(answer)?.[1];
      return { behavior: "deny", message: reason === undefined ? DENIED_AT_TERMINAL : `The person at the terminal denied this: ${reason}`, by: "terminal" };
    } finally {
      options.onPromptEnd?.();
    }
  };

  return {
    ask(request, signal) {
      // One question on screen at a time; later requests wait their turn.
      const next = queue.then(() => askOne(request, signal));
      queue = next.catch(() => undefined);
      return next;
    },
    close() {
      rl?.close();
      rl = undefined;
    },
  };
}
