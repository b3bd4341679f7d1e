// Runs a command on a pseudo-terminal with util-linux `script`, as a person at a terminal would:
// stdin, stdout and stderr are one TTY. Tests type keys and wait for text to appear. Test-only.
import { spawn } from "node:child_process";
import { screenOf } from "./terminal-screen.js";

export type PtyRun = {
  /** Everything the terminal received so far (stdout and stderr together, with escapes). */
  output(): string;
  /** The screen a person sees now. */
  screen(): string[];
  /** Resolves once `text` appears in the output after what earlier waits consumed. */
  waitFor(text: string): Promise<void>;
  /** Types keys ("1\r" is 1 and Enter, "\x03" is Ctrl-C). */
  type(keys: string): void;
  /** The command's exit code. */
  readonly exited: Promise<number>;
};

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Starts `argv` in a `columns` × 50 terminal with the given environment. */
export function runInPty(argv: readonly string[], options: { env: NodeJS.ProcessEnv; columns?: number }): PtyRun {
  const command = `stty cols ${options.columns ?? 160} rows 50; exec ${argv.map(quote).join(" ")}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { ...options.env, TERM: "xterm-256color" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  let seen = 0;
  const waiters: { text: string; resolve: () => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const at = output.indexOf(w.text, seen);
      if (at < 0) continue;
      seen = at + w.text.length;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    check();
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code ?? 1));
  });
  return {
    output: () => output,
    screen: () => screenOf(output),
    waitFor(text) {
      return new Promise((resolve, reject) => {
        const waiter = { text, resolve };
        waiters.push(waiter);
        check();
        exited.then(() => {
          if (waiters.includes(waiter)) reject(new Error(`the command exited before "${text}" appeared:\n${output}`));
        }, reject);
      });
    },
    type(keys) {
      child.stdin.write(keys);
    },
    exited,
  };
}
