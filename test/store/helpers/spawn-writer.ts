// Starts writer-child.ts as a real process and lets a test wait for its "committed N" lines.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url));

export type Writer = {
  child: ChildProcess;
  /** Resolves once the child has opened the store and waits for go(). */
  ready: Promise<void>;
  /** Lets the child start writing. */
  go(): void;
  /** The highest N the child reported as committed so far. */
  lastCommitted(): number;
  /** Resolves once the child has reported at least `n` commits. */
  waitForCommitted(n: number): Promise<void>;
  /** Resolves with the exit code and signal once its output is fully read. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
};

export function spawnWriter(dir: string, name: string, iterations?: number): Writer {
  const args = ["--import", here("./ts-register.js"), here("./writer-child.ts"), dir, name];
  if (iterations !== undefined) args.push(String(iterations));
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  let committed = 0;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let buffered = "";
  let stderr = "";
  const waiters: { n: number; resolve: () => void }[] = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "ready") markReady();
      const match = /^committed (\d+)$/.exec(line);
      if (match) committed = Number(match[1]);
    }
    for (const waiter of waiters.filter((w) => committed >= w.n)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
  return {
    child,
    ready,
    go: () => child.stdin.write("go\n"),
    lastCommitted: () => committed,
    waitForCommitted: (n) =>
      new Promise<void>((resolve, reject) => {
        if (committed >= n) return resolve();
        waiters.push({ n, resolve });
        void exited.then((e) =>
          reject(new Error(`writer ${name} exited (${e.code ?? e.signal}) after ${committed} commits: ${e.stderr}`)),
        );
      }),
    exited,
  };
}
