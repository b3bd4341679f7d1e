// The default launcher: the CLI is probed once per binary (remembered in the state directory
// when a cache file is given) and spawned as a direct child process of Telecode
// (claude-process.ts), so it ends when Telecode ends it.
import { ClaudeProcess } from "./claude-process.js";
import { createCliProbe, type CliProbe } from "./cli-probe.js";
import type { Clock } from "../ports/index.js";
import type { CliLauncher } from "./transport.js";

export type DirectLauncherOptions = {
  clock: Clock;
  /** What finds the CLI and learns what it supports; default a probe that keeps its answers in memory. */
  probe?: CliProbe;
};

export function createDirectLauncher(options: DirectLauncherOptions): CliLauncher {
  const probe = options.probe ?? createCliProbe();
  return {
    probe: (command, env) => probe.probe(command, env),
    launch: (request) => ClaudeProcess.start({ ...request, clock: options.clock }),
  };
}
