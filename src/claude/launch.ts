// Starting one CLI process for a session: its allowlisted environment, what the binary
// supports, the arguments for this spec, then the launcher's transport.
import { definedFields } from "../domain/index.js";
import { buildArgs } from "./args.js";
import { buildChildEnv } from "./env.js";
import { latestSessionId } from "./latest-session.js";
import type { SessionSpec } from "./spec.js";
import type { CliInfo, CliLauncher, CliTransport } from "./transport.js";

export type LaunchDeps = { command: string; baseEnv: NodeJS.ProcessEnv; launcher: CliLauncher };

export type Launched = { transport: CliTransport; info: CliInfo; args: readonly string[] };

/** Starts the CLI for `spec`. Throws `claude.not_found` or `claude.spawn_failed`. */
export async function launchCli(
  deps: LaunchDeps,
  spec: SessionSpec,
  session: { resume: string | undefined; continueLast: boolean; prompt: string | undefined },
): Promise<Launched> {
  const env = buildChildEnv(deps.baseEnv, {
    envAllow: spec.envAllow,
    useApiBilling: spec.useApiBilling,
    provider: spec.provider,
    disableCron: spec.disableCron,
  });
  const info = await deps.launcher.probe(deps.command, env);
  // The CLI's own --continue goes by file times, which closing a process moves: pick by the
  // sessions' own last activity, and leave --continue for a project with no transcript.
  const latest = session.continueLast ? await latestSessionId(spec.cwd, env) : undefined;
  const args = buildArgs(spec, {
    supportsHookEvents: info.supportsHookEvents,
    resume: latest ?? session.resume,
    continueLast: session.continueLast && latest === undefined,
    ...definedFields({ prompt: session.prompt }),
  });
  const transport = await deps.launcher.launch({ file: info.path, args, cwd: spec.cwd, env });
  return { transport, info, args };
}
