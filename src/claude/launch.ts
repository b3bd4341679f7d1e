// Starting one CLI process for a session: its allowlisted environment, what the binary is
// known to support, the arguments for this spec, then the launcher's transport. A binary not
// probed yet is started at once with the newest CLI's flags (flag-fallback.ts drops a refused one).
import { statSync } from "node:fs";
import { definedFields } from "../domain/index.js";
import type { Logger } from "../ports/index.js";
import { buildArgs, type ArgsContext } from "./args.js";
import { buildChildEnv } from "./env.js";
import { projectMissingError } from "./failures.js";
import { launchWithFlagFallback } from "./flag-fallback.js";
import { latestSessionId, writtenDown } from "./transcripts.js";
import type { SessionSpec } from "./spec.js";
import type { CliInfo, CliLauncher, CliTransport, LaunchRequest } from "./transport.js";

export type LaunchDeps = { command: string; baseEnv: NodeJS.ProcessEnv; launcher: CliLauncher; logger: Logger };

export type Launched = {
  transport: CliTransport;
  info: CliInfo;
  args: readonly string[];
  /** The session it was to resume, when Claude Code no longer had it and a fresh one started (spec.freshIfGone). */
  gone?: string;
  /** It was to continue the project's latest session, and the project has none it can resume: a fresh one started. */
  nothingToContinue?: true;
};

/** The one flag chosen from what the probe learnt. */
const HOOK_EVENTS_FLAG = "--include-hook-events";

/** The environment the CLI gets for `spec` (it also says where its transcripts are). */
export function sessionEnv(baseEnv: NodeJS.ProcessEnv, spec: SessionSpec): NodeJS.ProcessEnv {
  return buildChildEnv(baseEnv, {
    envAllow: spec.envAllow,
    useApiBilling: spec.useApiBilling,
    provider: spec.provider,
    disableCron: spec.disableCron,
  });
}

/** The session to resume when Claude Code no longer has it and `spec` asks for a fresh one then. */
async function goneSession(
  spec: SessionSpec,
  resume: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  if (spec.freshIfGone !== true || resume === undefined) return undefined;
  return (await writtenDown(spec.cwd, resume, env)) === "nothing" ? resume : undefined;
}

/**
 * The project's folder must be there: spawning in a missing one fails as if the CLI were
 * missing (both are ENOENT), and a folder created in its place would run Claude on nothing.
 * Synchronous, as the spawn that follows is (its child's chdir blocks it just the same): an
 * awaited stat was a trip through the thread pool that let other work in before every spawn.
 */
function requireProjectFolder(cwd: string): void {
  let isFolder: boolean;
  try {
    isFolder = statSync(cwd).isDirectory();
  } catch (error) {
    throw projectMissingError(cwd, error);
  }
  if (!isFolder) throw projectMissingError(cwd);
}

/** Starts the CLI for `spec`. Throws `claude.project_missing`, `claude.not_found` or `claude.spawn_failed`. */
export async function launchCli(
  deps: LaunchDeps,
  spec: SessionSpec,
  session: { resume: string | undefined; continueLast: boolean; prompt: string | undefined },
): Promise<Launched> {
  requireProjectFolder(spec.cwd);
  const env = sessionEnv(deps.baseEnv, spec);
  const [info, latest, gone] = await Promise.all([
    deps.launcher.probe(deps.command, env),
    // The CLI's own --continue goes by file times, which closing a process moves: pick by the
    // sessions' own last activity, and leave --continue for a project with no transcript.
    session.continueLast ? latestSessionId(spec.cwd, env) : undefined,
    goneSession(spec, session.resume, env),
  ]);
  const context: ArgsContext = {
    supportsHookEvents: info.supportsHookEvents,
    resume: latest ?? (gone === undefined ? session.resume : undefined),
    continueLast: session.continueLast && latest === undefined,
    ...definedFields({ prompt: session.prompt }),
  };
  const request: LaunchRequest = { file: info.path, args: buildArgs(spec, context), cwd: spec.cwd, env };
  const more: Pick<Launched, "gone" | "nothingToContinue"> = definedFields({ gone });
  if (context.continueLast) more.nothingToContinue = true;
  if (info.probed) return { transport: await deps.launcher.launch(request), info, args: request.args, ...more };
  const transport = await launchWithFlagFallback(request, {
    launcher: deps.launcher,
    logger: deps.logger,
    without(flag, refused) {
      if (flag !== HOOK_EVENTS_FLAG) return undefined;
      const args = buildArgs(spec, { ...context, supportsHookEvents: false });
      // A flag the config's extra_args asked for stays: the CLI's own error then says it is unknown.
      return args.includes(flag) ? undefined : { ...refused, args };
    },
  });
  return { transport, info, args: request.args, ...more };
}
