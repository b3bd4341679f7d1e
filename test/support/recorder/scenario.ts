// The scenario language of the fixture recorder: what the fake Messages API answers, which
// processes the CLI runs, and what the consumer writes and waits for on each. Data plus small
// functions for values only known at run time (a request id, an earlier run's session).
import type { FakeReply } from "../fake-anthropic/index.js";

/** A stdout line as the recorder sees it: parsed, or undefined when it is not JSON. */
export type SeenLine = Record<string, unknown>;

/**
 * Which stdout lines a step waits for: "type" or "type/sub", where sub is the line's subtype,
 * its request's or response's subtype, or a command_lifecycle state ("control_request/can_use_tool",
 * "result", "command_lifecycle/completed"); "assistant/tool_use" is an assistant line with a
 * tool_use block.
 */
export type LineMatch = string;

/** What a run knows while it plays: earlier runs' session ids (for --resume). */
export type RunContext = { sessionOf(label: string): string };

export type Step =
  /** Writes one stdin line: an object as JSON, a string as it is. */
  | { write: Record<string, unknown> | string }
  /** Waits until `count` stdout lines (this run, from its start) matched. */
  | { waitFor: LineMatch; count?: number; timeoutMs?: number }
  /** Waits for the `count`-th matching control_request and answers it with `with(request)` as the success payload. */
  | { answer: LineMatch; count?: number; with: (request: SeenLine) => Record<string, unknown> }
  | { pauseMs: number }
  | { closeStdin: true }
  | { signal: NodeJS.Signals };

export type ScenarioRun = {
  /** "main" names the NAME.* files; any other label NAME.LABEL.* (run0, first). */
  label: string;
  args: string[] | ((context: RunContext) => string[]);
  /** Extra environment for this run only; null removes a variable. */
  env?: Readonly<Record<string, string | null>>;
  steps: readonly Step[];
};

/** Where a scenario runs: its project (the CLI's cwd) and HOME, both fresh. */
export type ScenarioPlace = { project: string; home: string };

export type Scenario = {
  name: string;
  description: string;
  /** Waits on the CLI's own clock (cron, wake-ups): minutes, so only recorded with --slow. */
  slow?: boolean;
  /** Files written into the project before the first run, relative to it. */
  files?: Readonly<Record<string, string>>;
  /** Files written into HOME before the first run, relative to it (the CLI's own settings). */
  homeFiles?: Readonly<Record<string, string>>;
  /** Extra environment for every run; null removes a variable (e.g. ANTHROPIC_API_KEY). */
  env?: Readonly<Record<string, string | null>>;
  /** The default queue of the fake Messages API, in order (built once the place exists). */
  replies: readonly FakeReply[] | ((place: ScenarioPlace) => readonly FakeReply[]);
  /** Queues for requests whose user text contains the key (a subagent's prompt marker). */
  keyed?: Readonly<Record<string, readonly FakeReply[]>>;
  /** Answer when a queue is empty (the fake's own default otherwise). */
  fallback?: FakeReply;
  /** Values the scenario itself writes that look volatile (a fixed uuid) and must be kept. */
  keep?: readonly string[];
  runs: readonly ScenarioRun[];
};
