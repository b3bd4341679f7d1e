// Refuses `claude.extra_args` that would fight Telecode over flags it sets itself (the
// protocol, the session and the permission machinery). Pure: returns problems, throws nothing.

type ManagedFlag = { long: string; short?: string; why: string };

const MANAGED: readonly ManagedFlag[] = [
  { long: "--print", short: "-p", why: "Telecode runs the CLI in print mode itself" },
  { long: "--output-format", why: "Telecode speaks stream-json to the CLI itself" },
  { long: "--input-format", why: "Telecode speaks stream-json to the CLI itself" },
  { long: "--resume", short: "-r", why: "Telecode resumes sessions itself; use /resume" },
  { long: "--continue", short: "-c", why: "Telecode resumes sessions itself; use /resume" },
  { long: "--permission-mode", why: "set claude.permission_mode or use /mode instead" },
  { long: "--permission-prompt-tool", why: "Telecode answers permission prompts itself" },
  { long: "--dangerously-skip-permissions", why: "set claude.dangerously_skip_permissions instead" },
  { long: "--allow-dangerously-skip-permissions", why: "set claude.dangerously_skip_permissions instead" },
];

/** The managed flag an argument spells, if any: `--resume`, `--resume=x`, `-r`, or `-pr` style bundles. */
function managedFlagOf(arg: string): ManagedFlag | undefined {
  if (arg.startsWith("--")) {
    const name = arg.split("=", 1)[0]?.toLowerCase() ?? arg;
    return MANAGED.find((flag) => flag.long === name);
  }
  if (arg.startsWith("-") && arg.length >= 2 && !/^-\d/.test(arg)) {
    // Short options may be bundled (-pc); refusing any managed letter errs on the safe side.
    const letters = arg.slice(1).split("=", 1)[0] ?? "";
    return MANAGED.find((flag) => flag.short !== undefined && letters.includes(flag.short.slice(1)));
  }
  return undefined;
}

/** The arguments that spell a managed flag, each with why it is refused. */
export function findManagedFlags(args: readonly string[]): { arg: string; why: string }[] {
  return args.flatMap((arg) => {
    const flag = managedFlagOf(arg);
    return flag ? [{ arg, why: flag.why }] : [];
  });
}

/** Problems with extra CLI arguments, one sentence each; empty when they are acceptable. */
export function validateExtraArgs(args: readonly string[]): string[] {
  return findManagedFlags(args).map(({ arg, why }) => `${JSON.stringify(arg)} is managed by Telecode and cannot be passed (${why})`);
}
