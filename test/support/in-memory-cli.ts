// The engine's transport with no process behind it (the MCP SDK's InMemoryTransport, for a
// CLI): the test plays the CLI's side, printing stdout lines and reading what the engine
// wrote to stdin. Delivery is asynchronous, as from a pipe, and honours pause/resume.
import { ClaudeError } from "../../src/claude/index.js";
import type {
  CliLauncher,
  CliTransport,
  LaunchRequest,
  ProcessExit,
  StdinWrite,
  TransportClosed,
  TransportHandlers,
} from "../../src/claude/index.js";

type Json = Record<string, unknown>;

/** The CLI's end of the pair: what a test scripts. */
export type FakeCliEnd = {
  readonly request: LaunchRequest;
  /** What the engine wrote to stdin, one parsed line each. */
  readonly stdin: readonly Json[];
  /** The first stdin line (already written or still to come) that matches, after `from`. */
  nextStdin(match: (line: Json) => boolean, from?: number): Promise<Json>;
  /** One stdout line: an object is written as JSON, a string as it is. */
  print(line: Json | string): void;
  /** The process exits: the lines printed so far are delivered first. */
  exit(exit?: Partial<ProcessExit>, stderr?: string): void;
  readonly stdinClosed: boolean;
  /** True while the engine asked the transport to stop delivering. */
  readonly paused: boolean;
  /** Called when the engine closes stdin; by default the CLI exits with code 0, as the real one does. */
  onStdinClosed: () => void;
};

/** What the direct transport fails a write with once the CLI is gone. */
function stdinClosedError(): ClaudeError {
  const failure = {
    reason: "stdin_closed" as const,
    what: "Claude Code is no longer reading its input.",
    hint: "Send the message again to resume the session.",
  };
  return new ClaudeError("claude.stdin_closed", `${failure.what} ${failure.hint}`, { failure });
}

/** A linked pair: the transport the engine uses and the CLI end the test drives. */
export function createInMemoryTransportPair(request: LaunchRequest, pid: number): [CliTransport, FakeCliEnd] {
  const stdin: Json[] = [];
  const waiters: { match: (line: Json) => boolean; from: number; resolve: (line: Json) => void }[] = [];
  const outbox: (readonly [kind: "line", text: string])[] = [];
  let handlers: TransportHandlers | undefined;
  let seq = 0;
  let paused = false;
  let flushing = false;
  let stdinClosed = false;
  let exit: ProcessExit | undefined;
  let stderrTail = "";
  let markClosed: (closed: TransportClosed) => void = () => undefined;
  const closed = new Promise<TransportClosed>((resolve) => (markClosed = resolve));

  const flush = (): void => {
    if (flushing || handlers === undefined) return;
    flushing = true;
    setImmediate(() => {
      flushing = false;
      while (!paused && handlers !== undefined && outbox.length > 0) handlers.onLine(outbox.shift()![1], ++seq);
      if (exit !== undefined && outbox.length === 0) markClosed({ exit, stderrTail });
    });
  };

  const cli: FakeCliEnd = {
    request,
    stdin,
    nextStdin(match, from = 0) {
      const hit = stdin.slice(from).find(match);
      if (hit !== undefined) return Promise.resolve(hit);
      return new Promise((resolve) => waiters.push({ match, from, resolve }));
    },
    print(line) {
      if (exit !== undefined) throw new Error("the fake CLI already exited");
      outbox.push(["line", typeof line === "string" ? line : JSON.stringify(line)]);
      flush();
    },
    exit(how = {}, stderr = "") {
      if (exit !== undefined) return;
      exit = { code: how.code ?? (how.signal === undefined ? 0 : null), signal: how.signal ?? null };
      stderrTail = stderr.trim();
      flush();
    },
    get stdinClosed() {
      return stdinClosed;
    },
    get paused() {
      return paused;
    },
    onStdinClosed: () => cli.exit({ code: 0 }),
  };

  const closeStdin = (): void => {
    if (stdinClosed) return;
    stdinClosed = true;
    cli.onStdinClosed();
  };

  const transport: CliTransport = {
    pid,
    get exit() {
      return exit;
    },
    start(next) {
      handlers = next;
      flush();
    },
    write(line): Promise<StdinWrite> {
      if (stdinClosed || exit !== undefined) return Promise.resolve({ ok: false, error: stdinClosedError() });
      const parsed = JSON.parse(line) as Json;
      stdin.push(parsed);
      for (const waiter of [...waiters]) {
        if (stdin.length - 1 >= waiter.from && waiter.match(parsed)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(parsed);
        }
      }
      return Promise.resolve({ ok: true });
    },
    closeStdin,
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      flush();
    },
    shutdown() {
      paused = false;
      closeStdin();
      if (exit === undefined) cli.exit({ signal: "SIGTERM" });
      return closed;
    },
    closed,
  };
  return [transport, cli];
}

export type InMemoryLauncher = CliLauncher & {
  /** Every CLI started so far, oldest first. */
  readonly launched: readonly FakeCliEnd[];
};

/** A launcher whose CLIs are in-memory pairs; `onLaunch` scripts each new one. */
export function createInMemoryLauncher(onLaunch: (cli: FakeCliEnd) => void = () => undefined): InMemoryLauncher {
  const launched: FakeCliEnd[] = [];
  return {
    launched,
    probe: (command) => Promise.resolve({ path: command, version: "2.1.332", supportsHookEvents: true, probed: true }),
    launch(request) {
      const [transport, cli] = createInMemoryTransportPair(request, 90_000 + launched.length);
      launched.push(cli);
      onLaunch(cli);
      return Promise.resolve(transport);
    },
  };
}

/** Calls `handle` for every stdin line (already written or still to come) that matches, in order. */
export function onEachStdin(cli: FakeCliEnd, match: (line: Json) => boolean, handle: (line: Json) => void): void {
  let from = 0;
  const next = (): void => {
    void cli.nextStdin(match, from).then((line) => {
      from = cli.stdin.indexOf(line) + 1;
      handle(line);
      next();
    });
  };
  next();
}

/** Acks the engine's initialize (and other control requests) the way the CLI does. */
export function answerControlRequests(cli: FakeCliEnd): void {
  onEachStdin(
    cli,
    (line) => line["type"] === "control_request",
    (line) => {
      if (cli.stdinClosed) return;
      const request = line["request"] as Json;
      cli.print({
        type: "control_response",
        response: {
          subtype: "success",
          request_id: line["request_id"],
          response: request["subtype"] === "initialize" ? { commands: [] } : {},
        },
      });
    },
  );
}
