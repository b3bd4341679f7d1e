// The command-line entry: parses the subcommand and hands over to its module. This is the
// composition root: the only place that wires concrete adapters together.
import { outliveClosedOutput, takeLostOutput, type CommandIo } from "./command-io.js";
import { readPackageVersion } from "./version.js";

type Command = {
  summary: string;
  run: (argv: string[], io: CommandIo) => Promise<number>;
};

/** Subcommands, loaded lazily so `telecode --help` stays fast. */
const commands: Record<string, Command> = {
  init: {
    summary: "set up Telecode: bot token, your user id, project, mode; writes the config",
    run: async (argv, io) => (await import("./init.js")).runInit(argv, io),
  },
  doctor: {
    summary: "check config, bot token, Bot API, Claude CLI, data directory and database",
    run: async (argv, io) => (await import("./doctor.js")).runDoctor(argv, io),
  },
  service: {
    summary: "install or uninstall a systemd user unit / launchd agent for the bridge",
    run: async (argv, io) => (await import("./service.js")).runService(argv, io),
  },
  serve: {
    summary: "run the Telegram bridge (the default when no command is given)",
    run: async (argv, io) => (await import("./serve.js")).runServe(argv, io),
  },
  replay: {
    summary: "print the events of a recorded Claude Code stream",
    run: async (argv, io) => (await import("./replay.js")).runReplay(argv, io),
  },
  run: {
    summary: "run Claude Code once in this terminal: live progress, approvals, the answer on stdout",
    run: async (argv, io) => (await import("./run.js")).runRun(argv, io),
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return [
    "Usage: telecode [command] [options]",
    "",
    "Commands:",
    "  (none)     run the Telegram bridge",
    ...lines,
    "",
    "Options: --help, --version. `telecode COMMAND --help` shows a command's options.",
  ].join("\n");
}

/**
 * Runs one invocation and returns the process exit code (0 ok, 1 failure, 2 bad usage). Output
 * lost to a full disk is a failure, whatever the command found.
 */
export async function main(
  argv: string[],
  io: CommandIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  outliveClosedOutput(io);
  const code = await dispatch(argv, io);
  // A failed write's error comes on a later tick than the write.
  await new Promise((resolve) => setImmediate(resolve));
  const lost = takeLostOutput(io.stdout);
  if (lost === undefined) return code;
  io.stderr.write(`telecode: the output could not all be written (${lost}).\n`);
  return code === 0 ? 1 : code;
}

async function dispatch(argv: string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-V") {
    io.stdout.write(`${readPackageVersion()}\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    io.stdout.write(`${usage()}\n`);
    return 0;
  }
  if (first === undefined || first.startsWith("-")) {
    const serve = commands["serve"];
    if (serve) return serve.run(argv, io);
    io.stderr.write(`${usage()}\n`);
    return 2;
  }
  if (first === "keeper") return (await import("./keeper.js")).runKeeperCommand(rest, io);
  const command = commands[first];
  if (!command) {
    const { closestName } = await import("../domain/index.js");
    const meant = closestName(first, Object.keys(commands));
    const hint = meant === undefined ? "" : `; did you mean \`telecode ${meant}\`?`;
    io.stderr.write(`telecode: unknown command "${first}"${hint}\n\n${usage()}\n`);
    return 2;
  }
  return command.run(rest, io);
}
