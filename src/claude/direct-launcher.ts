// The default launcher: the CLI is probed once per binary and spawned as a direct child
// process of Telecode (claude-process.ts), so it ends when Telecode ends it.
import { ClaudeProcess } from "./claude-process.js";
import { createCliProbe } from "./cli-probe.js";
import type { Clock } from "../ports/index.js";
import type { CliLauncher } from "./transport.js";

export function createDirectLauncher(clock: Clock): CliLauncher {
  const probe = createCliProbe();
  return {
    probe: (command, env) => probe.probe(command, env),
    launch: (request) => ClaudeProcess.start({ ...request, clock }),
  };
}
