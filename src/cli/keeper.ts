// `telecode keeper` (hidden; Telecode starts it, people do not): reads a keeper spec as JSON on
// stdin, runs the CLI under a keeper, answers one ready line on stdout, and returns when the
// keeper is done. Loads no Telegram, SQLite or engine code.
import { appendFileSync } from "node:fs";
import { createSystemClock } from "../ports/index.js";
import { isKeeperError, parseKeeperSpec, runKeeper, type KeeperReady } from "../keeper/index.js";
import type { CommandIo } from "./command-io.js";

const KEEPER_HELP = `Usage: telecode keeper < SPEC

Started by Telecode, not by hand: runs one Claude Code CLI detached from Telecode, so a restart
of Telecode does not end it. Reads its spec (JSON) on stdin and prints one ready line.
`;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** Runs a keeper until it is done; 0 when it ran, 1 when the CLI could not start, 2 for a bad spec. */
export async function runKeeperCommand(
  argv: string[],
  io: CommandIo,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(KEEPER_HELP);
    return 0;
  }
  const answer = (ready: KeeperReady): void => void io.stdout.write(`${JSON.stringify(ready)}\n`);
  const text = await readAll(stdin);
  // A keeper started ahead of need whose Telecode ended before using it: nothing to do.
  if (text.trim() === "") return 0;
  const parsed = parseKeeperSpec(text);
  if (!parsed.ok) {
    answer({ ready: false, code: "keeper.bad_spec", message: `The keeper spec is invalid: ${parsed.problem}.` });
    return 2;
  }
  // Everything the keeper creates (socket, state, log) is for this user only.
  process.umask(0o077);
  const { stderrPath } = parsed.spec.paths;
  if (parsed.spec.stderrToFile === true)
    process.on("uncaughtException", (error) => {
      appendFileSync(stderrPath, `${error.stack ?? String(error)}\n`, { mode: 0o600 });
      process.exit(70);
    });
  let running;
  try {
    running = await runKeeper(parsed.spec, createSystemClock());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    answer({ ready: false, code: isKeeperError(error) ? error.code : "keeper.start_failed", message });
    return 1;
  }
  const stop = (): void => running.endCli();
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // Detached, with no terminal: a hangup is not a reason to end a run.
  process.on("SIGHUP", () => undefined);
  answer({ ready: true, pid: running.pid, cliPid: running.cliPid });
  await running.finished;
  return 0;
}
