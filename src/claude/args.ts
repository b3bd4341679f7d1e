// Builds the CLI's argument list from a typed session spec. Which extra args may be passed is
// decided in extra-args.ts. No I/O here.
import type { SessionSpec } from "./spec.js";

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
  args.push(...withSystemPrompt(spec.extraArgs ?? [], spec.appendSystemPrompt));
  if (spec.print === true) args.push("--", ctx.prompt ?? "");
  return args;
}

const APPEND_FLAG = "--append-system-prompt";

/**
 * The person's extra args with Telecode's `--append-system-prompt` text added: the CLI keeps only
 * the last of these flags, so a person's own is taken out and its text joined before Telecode's.
 */
function withSystemPrompt(extraArgs: readonly string[], ours: string | undefined): readonly string[] {
  if (ours === undefined || ours === "") return extraArgs;
  const rest: string[] = [];
  const theirs: string[] = [];
  for (let i = 0; i < extraArgs.length; i++) {
    const arg = extraArgs[i]!;
    if (arg === APPEND_FLAG && i + 1 < extraArgs.length) theirs.push(extraArgs[++i]!);
    else if (arg.startsWith(`${APPEND_FLAG}=`)) theirs.push(arg.slice(APPEND_FLAG.length + 1));
    else rest.push(arg);
  }
  return [...rest, APPEND_FLAG, [...theirs, ours].join("\n\n")];
}
