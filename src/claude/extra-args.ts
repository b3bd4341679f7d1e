// Which `claude.extra_args` may reach the CLI (2.1.332's flags, each with the reason for its
// place): an allow-list, flags that need an explicit opt-in, and flags Telecode manages. No I/O.

/** How a flag takes values, as the CLI's option parser (commander) reads them. */
type Arity = "none" | "one" | "optional" | "many";

type Flag = { arity: Arity; why: string };

/** Passed as given: they change what Claude knows or may spend, never who approves what. */
const SAFE: Readonly<Record<string, Flag>> = {
  "--add-dir": { arity: "many", why: "more directories Claude may work in; each tool call is still approved" },
  "--append-system-prompt": { arity: "one", why: "adds text to the system prompt" },
  "--append-system-prompt-file": { arity: "one", why: "adds a file's text to the system prompt" },
  "--system-prompt": { arity: "one", why: "replaces the system prompt; permissions are enforced apart from it" },
  "--system-prompt-file": { arity: "one", why: "replaces the system prompt with a file's text" },
  "--system-prompt-snapshot": { arity: "one", why: "how the system prompt is cached" },
  "--exclude-dynamic-system-prompt-sections": { arity: "none", why: "moves machine details out of the prompt" },
  "--fallback-model": { arity: "one", why: "models to use when the main one is busy" },
  "--betas": { arity: "many", why: "API beta headers" },
  "--max-turns": { arity: "one", why: "a cap on agentic turns; Telecode reports it when reached" },
  "--max-budget-usd": { arity: "one", why: "a spending cap" },
  "--max-thinking-tokens": { arity: "one", why: "a cap on thinking" },
  "--autocompact": { arity: "one", why: "when the context is compacted" },
  "--disallowedTools": { arity: "many", why: "removes tools: it only narrows what Claude may do" },
  "--disallowed-tools": { arity: "many", why: "removes tools: it only narrows what Claude may do" },
  "--tools": { arity: "many", why: "the built-in tool set; every call is still approved" },
  "--disable-slash-commands": { arity: "none", why: "turns skills and commands off" },
  "--name": { arity: "one", why: "the session's display name" },
  "--verbose": { arity: "none", why: "Telecode sets it already" },
  "--debug": { arity: "optional", why: "debug logging, which never reaches the output Telecode reads" },
  "--debug-file": { arity: "one", why: "where debug logging goes" },
};

/**
 * Refused unless `claude.dangerously_allow_unsafe_args` names them: each can change permissions,
 * hooks, settings sources, MCP servers, agents, or the session Telecode resumes.
 */
const UNSAFE: Readonly<Record<string, Flag>> = {
  "--settings": { arity: "one", why: "its permission rules and hooks can allow tools without asking" },
  "--setting-sources": { arity: "one", why: "it chooses which settings files (and their deny rules) load" },
  "--mcp-config": { arity: "many", why: "its MCP servers start commands and add tools" },
  "--strict-mcp-config": { arity: "none", why: "it replaces the MCP servers your settings define" },
  "--agents": { arity: "one", why: "its agents can carry their own tools and permission mode" },
  "--agent": { arity: "one", why: "an agent can carry its own tools and permission mode" },
  "--plugin-dir": { arity: "one", why: "a plugin brings hooks, MCP servers and agents" },
  "--plugin-url": { arity: "one", why: "it downloads a plugin, which brings hooks, MCP servers and agents" },
  "--bare": { arity: "none", why: "it skips your hooks and changes how the CLI logs in" },
  "--safe-mode": { arity: "none", why: "it turns off your hooks, MCP servers and agents" },
  "--restricted": { arity: "none", why: "it ignores your settings files, with their deny rules" },
  "--fork-session": { arity: "none", why: "every resume would start a new session Telecode does not know" },
  "--no-session-persistence": { arity: "none", why: "sessions could not be resumed or continued" },
  "--replay-user-messages": { arity: "none", why: "it changes the stream Telecode reads" },
};

/** Set by Telecode itself, or contrary to how it drives the CLI: never accepted. */
const MANAGED: Readonly<Record<string, Flag>> = {
  "--print": { arity: "none", why: "Telecode chooses print or control mode itself" },
  "--output-format": { arity: "one", why: "Telecode reads stream-json and sets it itself" },
  "--input-format": { arity: "one", why: "Telecode writes stream-json and sets it itself" },
  "--resume": { arity: "optional", why: "Telecode resumes sessions itself" },
  "--continue": { arity: "none", why: "use `telecode run --continue` or /continue instead" },
  "--session-id": { arity: "one", why: "Telecode tracks session ids itself, and one fixed id cannot serve every chat" },
  "--permission-mode": { arity: "one", why: "set claude.permission_mode instead" },
  "--permission-prompt-tool": { arity: "one", why: "Telecode answers approvals itself" },
  "--permission-prompts": { arity: "one", why: "Telecode answers approvals itself" },
  "--allowedTools": { arity: "many", why: "set claude.allowed_tools instead" },
  "--allowed-tools": { arity: "many", why: "set claude.allowed_tools instead" },
  "--dangerously-skip-permissions": {
    arity: "none",
    why: "it bypasses every approval; set claude.dangerously_skip_permissions = true if you really mean it",
  },
  "--allow-dangerously-skip-permissions": {
    arity: "none",
    why: "it lets approvals be bypassed; set claude.dangerously_skip_permissions = true if you really mean it",
  },
  "--model": { arity: "one", why: "set claude.model (or /model in a chat) instead" },
  "--effort": { arity: "one", why: "set claude.effort (or /effort in a chat) instead" },
  "--include-partial-messages": { arity: "none", why: "Telecode decides what the stream carries" },
  "--include-hook-events": { arity: "none", why: "Telecode decides what the stream carries" },
  "--worktree": { arity: "optional", why: "the working directory is the project's; set [projects.NAME] path" },
  "--bg": { arity: "none", why: "a background session would detach from Telecode" },
  "--background": { arity: "none", why: "a background session would detach from Telecode" },
  "--help": { arity: "none", why: "it makes the CLI exit at once" },
  "--version": { arity: "none", why: "it makes the CLI exit at once" },
};

const SHORT: Readonly<Record<string, string>> = {
  p: "--print",
  r: "--resume",
  c: "--continue",
  h: "--help",
  v: "--version",
  w: "--worktree",
  d: "--debug",
  n: "--name",
};

/** A table's entry for `name`, never an inherited property ("constructor"). */
function entry<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/** The flags `claude.extra_args` accepts as they are, for messages and docs. */
export const SAFE_EXTRA_ARGS: readonly string[] = Object.keys(SAFE);

/** The flags `claude.dangerously_allow_unsafe_args` may name, with what each can do. */
export const UNSAFE_EXTRA_ARGS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(UNSAFE).map(([name, flag]) => [name, flag.why]),
);

/**
 * Why `name` cannot be in `claude.dangerously_allow_unsafe_args`, as a phrase that follows the
 * entry's key path ("… names "--model", a flag Telecode manages …"); undefined when it can.
 */
export function unsafeArgNameProblem(name: string): string | undefined {
  if (entry(UNSAFE, name) !== undefined) return undefined;
  const managed = entry(MANAGED, name);
  if (managed !== undefined)
    return `names "${name}", a flag Telecode manages, which cannot be allowed (${managed.why})`;
  if (entry(SAFE, name) !== undefined) return `names "${name}", which is always allowed; remove it`;
  return `names "${name}", which is not a flag this key can allow (it can allow ${Object.keys(UNSAFE).join(", ")})`;
}

const isFlagLike = (arg: string): boolean => arg.length > 1 && arg.startsWith("-");

type Verdict = { flag: Flag | undefined; problem: string | undefined };

/** `label` names the argument in the sentence; `name` is the long flag it stands for. */
function judge(label: string, name: string, allowUnsafe: ReadonlySet<string>): Verdict {
  const managed = entry(MANAGED, name);
  if (managed !== undefined) return { flag: managed, problem: `${label} is a flag Telecode manages; ${managed.why}.` };
  const unsafe = entry(UNSAFE, name);
  if (unsafe !== undefined && !allowUnsafe.has(name))
    return {
      flag: unsafe,
      problem: `${label} is refused because ${unsafe.why}, so it could bypass approvals; list "${name}" in claude.dangerously_allow_unsafe_args if you really mean it.`,
    };
  const known = entry(SAFE, name) ?? unsafe;
  if (known !== undefined) return { flag: known, problem: undefined };
  return {
    flag: undefined,
    problem: `${label} is not a flag Telecode knows to be safe to pass; the flags allowed here are ${SAFE_EXTRA_ARGS.join(", ")} (docs/configuration.md says why).`,
  };
}

/** One argument that starts with "-": its problem, and how it reads the arguments after it. */
type FlagReading = { problem?: string | undefined; next: Arity | "unknown" };

function readFlag(arg: string, allowUnsafe: ReadonlySet<string>): FlagReading {
  if (arg.startsWith("--")) {
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const { flag, problem } = judge(`"${arg}"`, name, allowUnsafe);
    if (flag === undefined) return { problem, next: "unknown" };
    if (eq < 0) return { problem, next: flag.arity };
    const noValue = flag.arity === "none" ? `"${arg}" gives a value to ${name}, which takes none.` : undefined;
    return { problem: problem ?? noValue, next: "none" };
  }
  // "-d" alone, or a cluster: a letter that takes a value takes the rest ("-dapi"), a boolean
  // letter leaves the rest to be read as flags ("-cp" is -c then -p), as commander does.
  let rest = arg.slice(1);
  for (;;) {
    const letter = rest[0] ?? "";
    const name = entry(SHORT, letter);
    const label =
      name === undefined ? `"${arg}"` : arg.length === 2 ? `"${arg}" (${name})` : `-${letter} (${name}) in "${arg}"`;
    const { flag, problem } = judge(label, name ?? `-${letter}`, allowUnsafe);
    if (flag === undefined) return { problem, next: "unknown" };
    if (rest.length === 1) return { problem, next: flag.arity };
    if (problem !== undefined || flag.arity !== "none") return { problem, next: "none" };
    rest = rest.slice(1);
  }
}

/**
 * Problems with `claude.extra_args`, one sentence per offending argument; empty when the list
 * is fine. Reads the list as the CLI's parser does (`--flag value`, `--flag=value`, clusters
 * like `-dapi`, variadic values), so no flag can hide as another flag's value, and a stray word
 * (which the CLI would take as a prompt or a command) or a bare `--` is refused.
 * `allowUnsafe` holds the flags `claude.dangerously_allow_unsafe_args` lets through.
 */
export function validateExtraArgs(args: readonly string[], allowUnsafe: readonly string[] = []): string[] {
  const allowed = new Set(allowUnsafe);
  const problems: string[] = [];
  const report = (text: string): void => void problems.push(`claude.extra_args: ${text}`);
  /** How a following word that is not a flag is read: a stray word, a variadic value, or skipped. */
  let words: "stray" | "values" = "stray";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") {
      report(`"--" would make the following arguments part of the prompt; remove it.`);
      words = "stray";
      continue;
    }
    if (!isFlagLike(arg)) {
      if (words === "stray")
        report(
          `"${arg}" is not a flag, and on its own the CLI would take it as a prompt or a command; put it right after the flag it belongs to.`,
        );
      continue;
    }
    const { problem, next } = readFlag(arg, allowed);
    if (problem !== undefined) report(problem);
    // After a flag of unknown shape (already refused), its would-be values are not reported again.
    words = next === "unknown" || next === "many" ? "values" : "stray";
    const following = args[i + 1];
    if (next === "one" || next === "many") {
      if (following === undefined && problem === undefined) report(`"${arg}" needs a value after it.`);
      i++;
    } else if (next === "optional" && following !== undefined && !isFlagLike(following)) i++;
  }
  return problems;
}
