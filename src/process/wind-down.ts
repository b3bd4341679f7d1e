// A CLI winding down once its input closed: it exits at once, unless it runs its SessionEnd
// hooks, which Claude Code waits for up to their own `timeout`. While such a hook runs the CLI is
// not hung, so it is given that time; what the hooks start may outlive it. Told apart through
// /proc (Linux): elsewhere a CLI gets its grace and nothing more, and nothing it leaves is spared.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { childrenOf, environmentValue, HOOK_VAR, isSpared, startTick, type Spare } from "./process-tree.js";

/** /proc's clock ticks a second (USER_HZ, the same on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** The longest Claude Code gives its SessionEnd hooks by their `timeout` (seconds; 60 at most). */
const HOOKS_BUDGET_MS = 60_000;
/** The most its `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS` can give them (an hour). */
const HOOKS_BUDGET_CAP_MS = 3_600_000;
/** How often a CLI that outlived its grace is looked at for a running hook. */
const LOOK_EVERY_MS = 100;

/** What a CLI's wait for its end sees: whether it exited within `ms`. */
export type ExitWithin = (ms: number) => Promise<boolean>;

/**
 * A CLI's input closing, and what follows. The moment it closed is kept on the clock /proc dates
 * processes by: what its hooks start from then is its winding down's (SessionEnd hooks), not the
 * session's (MCP servers and SessionStart hooks, which Claude Code marks the same way).
 */
export class WindDown {
  readonly #pid: number;
  #inputClosedTick: number | undefined;

  constructor(cliPid: number) {
    this.#pid = cliPid;
  }

  /** Its input closes now (the first time counts; without /proc there is no moment to keep). */
  inputClosed(): void {
    this.#inputClosedTick ??= tickNow();
  }

  /**
   * Whether the CLI exits within `graceMs` of its input closing, or later while it still runs a
   * hook it started since (up to the budget Claude Code gives such hooks): false means it is hung.
   */
  async exitsWithin(graceMs: number, exitWithin: ExitWithin): Promise<boolean> {
    if (await exitWithin(graceMs)) return true;
    const [hook] = this.#runningHooks();
    if (hook === undefined) return false;
    const budgetMs = hooksBudgetMs(hook, this.#pid);
    for (let waited = graceMs; waited < budgetMs + graceMs; waited += LOOK_EVERY_MS) {
      if (await exitWithin(LOOK_EVERY_MS)) return true;
      if (!this.runsHook()) return false;
    }
    return false;
  }

  /**
   * What `ProcessTree.windDownFrom` takes once the CLI has exited: the moment its input closed,
   * when it exited cleanly (status 0, no signal); undefined otherwise (everything is ended).
   */
  windDownFrom(exit: { code: number | null; signal: NodeJS.Signals | null }): number | undefined {
    return exit.code === 0 && exit.signal === null ? this.#inputClosedTick : undefined;
  }

  /** Whether the CLI runs a hook's command it started once its input had closed. */
  runsHook(): boolean {
    return this.#runningHooks().length > 0;
  }

  /** The hooks' commands the CLI runs that it started once its input had closed. */
  #runningHooks(): number[] {
    if (this.#inputClosedTick === undefined) return [];
    const spare: Spare = { variable: HOOK_VAR, fromTick: this.#inputClosedTick };
    return childrenOf(this.#pid).filter((child) => isSpared(child, spare));
  }
}

/**
 * How long Claude Code gives its SessionEnd hooks at most, as its environment sets it. Read from
 * a running hook first: a settings file's `env` block reaches the hooks' environments, never the
 * CLI's own as /proc shows it (the CLI applies it inside itself).
 */
function hooksBudgetMs(hookPid: number, cliPid: number): number {
  const name = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS";
  const set = Number(environmentValue(hookPid, name) ?? environmentValue(cliPid, name));
  return Number.isFinite(set) && set > HOOKS_BUDGET_MS ? Math.min(set, HOOKS_BUDGET_CAP_MS) : HOOKS_BUDGET_MS;
}

let ownStartTick: number | undefined;

/**
 * Now, in /proc's clock ticks since boot (the clock process start times are in, suspends
 * included); undefined without /proc. Where /proc/uptime is a container's own (behind every
 * start time), counted from this process's start instead.
 */
function tickNow(): number | undefined {
  ownStartTick ??= startTick(process.pid);
  if (ownStartTick === undefined) return undefined;
  const uptime = readUptimeTicks();
  if (uptime !== undefined && uptime >= ownStartTick) return uptime;
  return ownStartTick + Math.floor((performance.now() / 1000) * TICKS_PER_SECOND);
}

function readUptimeTicks(): number | undefined {
  try {
    const seconds = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
    // Two decimals: hundredths are whole ticks.
    return Number.isFinite(seconds) ? Math.round(seconds * TICKS_PER_SECOND) : undefined;
  } catch {
    return undefined;
  }
}
