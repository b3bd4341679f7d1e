// Builds the CLI's argument list from a typed session spec, and refuses `extra_args` that
// would take over what Telecode manages (I/O format, resume, approvals). No I/O here.
import type { SessionSpec } from "./spec.js";

/** Long flags Telecode sets itself, with what to use instead. */
const MANAGED_LONG: Readonly<Record<string, string>> = {
  "--print": "Telecode chooses print or control mode itself",
  "--output-format": "Telecode reads stream-json and sets it itself",
  "--input-format": "Telecode writes stream-json and sets it itself",
  "--resume": "Telecode resumes sessions itself",
  "--continue": "use `telecode run --continue` instead",
  "--permission-mode": "set claude.permission_mode instead",
  "--permission-prompt-tool": "Telecode answers approvals itself",
  "--permission-prompts": "Telecode answers approvals itself",
  "--allowedTools": "set claude.allowed_tools instead",
  "--allowed-tools": "set claude.allowed_tools instead",
  "--dangerously-skip-permissions":
    "it bypasses every approval; set claude.dangerously_skip_permissions = true if you really mean it",
  "--allow-dangerously-skip-permissions":
    "it lets approvals be bypassed; set claude.dangerously_skip_permissions = true if you really mean it",
  "--bg": "a background session would detach from Telecode",
  "--background": "a background session would detach from Telecode",
  "--help": "it makes the CLI exit at once",
  "--version": "it makes the CLI exit at once",
};

/** Short flags: managed ones, and the ones that take the rest of a cluster as their value. */
const MANAGED_SHORT: Readonly<Record<string, string>> = {
  p: "--print",
  r: "--resume",
  c: "--continue",
  h: "--help",
  v: "--version",
};
const SHORT_WITH_VALUE = new Set(["d", "n", "w", "r"]);

/**
 * Problems with `claude.extra_args`, one readable sentence each naming the flag; empty when
 * the list is fine. Catches every spelling: `--flag`, `--flag=value`, `-p`, clusters like `-cp`,
 * and a bare `--` (which would turn the rest into the prompt).
 */
export function validateExtraArgs(args: readonly string[]): string[] {
  const problems: string[] = [];
  for (const arg of args) {
    if (arg === "--") {
      problems.push(`claude.extra_args: "--" would make the following arguments part of the prompt; remove it.`);
      continue;
    }
    if (arg.startsWith("--")) {
      const flag = arg.split("=", 1)[0] ?? arg;
      const why = MANAGED_LONG[flag];
      if (why !== undefined) problems.push(`claude.extra_args: "${arg}" is a flag Telecode manages (${flag}); ${why}.`);
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (const letter of arg.slice(1)) {
        const long = MANAGED_SHORT[letter];
        if (long !== undefined) {
          problems.push(
            `claude.extra_args: "${arg}" contains -${letter} (${long}), a flag Telecode manages; ${MANAGED_LONG[long] ?? "remove it"}.`,
          );
          break;
        }
        if (SHORT_WITH_VALUE.has(letter)) break;
      }
    }
  }
  return problems;
}

export type ArgsContext = {
  /** The installed CLI lists --include-hook-events in its --help. */
  supportsHookEvents: boolean;
  /** Resume this session id (a later spawn of the same session, or spec.resume). */
  resume?: string | undefined;
  /** Continue the most recent conversation (only for a first spawn without a session id). */
  continueLast?: boolean;
  /** Print mode's prompt, placed after `--`. */
  prompt?: string;
};

/** The argument list for one spawn. Extra args go after every flag Telecode sets, before `--`. */
export function buildArgs(spec: SessionSpec, ctx: ArgsContext): string[] {
  const args =
    spec.print === true
      ? ["-p", "--output-format", "stream-json", "--verbose", "--permission-mode", spec.permissionMode]
      : [
          "--output-format",
          "stream-json",
          "--input-format",
          "stream-json",
          "--verbose",
          "--permission-mode",
          spec.permissionMode,
          "--permission-prompt-tool",
          "stdio",
        ];
  if (spec.includePartialMessages === true) args.push("--include-partial-messages");
  if (ctx.supportsHookEvents) args.push("--include-hook-events");
  if (ctx.resume !== undefined) args.push("--resume", ctx.resume);
  else if (ctx.continueLast === true) args.push("--continue");
  if (spec.model !== undefined && spec.model !== "") args.push("--model", spec.model);
  if (spec.effort !== undefined) args.push("--effort", spec.effort);
  // Only tools someone named: a default list would silently skip approvals in prompting modes.
  if (spec.allowedTools !== undefined && spec.allowedTools.length > 0)
    args.push("--allowedTools", spec.allowedTools.join(","));
  if (spec.dangerouslySkipPermissions === true) args.push("--dangerously-skip-permissions");
  if (spec.extraArgs !== undefined) args.push(...spec.extraArgs);
  if (spec.print === true) args.push("--", ctx.prompt ?? "");
  return args;
}
