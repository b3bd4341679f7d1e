// Helpers for keeper tests: a launcher that runs the built `telecode keeper` (bin/telecode.js,
// so `npm run build` first), a line collector with waits on what arrives, and cleanup that
// ends every keeper and CLI a test left behind.
import { rmSync } from "node:fs";
import { afterEach } from "vitest";
import { buildArgs } from "../../src/claude/index.js";
import { createSystemClock } from "../../src/ports/index.js";
import {
  attachKeeper,
  keeperCommand,
  keeperLaunchPlan,
  reapGoneKeeper,
  startKeeper,
  type AttachOptions,
  type Gap,
  type KeeperConnection,
  type KeeperLauncher,
  type KeeperRecord,
  type StartedKeeper,
  type StartKeeperOptions,
  type WarmKeeper,
} from "../../src/keeper/index.js";
import { encodeControlRequest, encodeUserMessage } from "../../src/wire/index.js";
import { telecodeBin } from "../support/telecode-bin.js";

export const clock = createSystemClock();

/** The control-mode arguments the engine gives the CLI. */
export const controlArgs = buildArgs({ cwd: "", permissionMode: "default" }, { supportsHookEvents: false });

export const initializeLine = (requestId: string): string =>
  encodeControlRequest(requestId, { subtype: "initialize", hooks: null });

export const userLine = (text: string): string => encodeUserMessage(text);

export function launcherFor(keepersDir: string, overrides: Partial<KeeperLauncher> = {}): KeeperLauncher {
  return {
    command: keeperCommand(telecodeBin),
    plan: keeperLaunchPlan({
      platform: "linux",
      systemdUnit: null,
      userManager: false,
      systemdRun: null,
      busReachable: false,
    }),
    keepersDir,
    runtimeDir: undefined,
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: keepersDir },
    telecodeVersion: "test",
    clock,
    ...overrides,
  };
}

export type Received = { seq: number; line: string };

/** Collects what a connection receives, with waits that resolve on arrival (no polling). */
export class Sink {
  readonly lines: Received[] = [];
  readonly gaps: Gap[] = [];
  #waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];

  readonly onLine = (line: string, seq: number): void => {
    const received = { seq, line };
    this.lines.push(received);
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(received)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(received);
      }
    }
  };

  readonly onGap = (gap: Gap): void => void this.gaps.push(gap);

  /** The first line (already received or still to come) that matches. */
  waitFor(match: (r: Received) => boolean): Promise<Received> {
    const hit = this.lines.find(match);
    if (hit !== undefined) return Promise.resolve(hit);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  /** The first line whose JSON has these top-level fields. */
  waitForJson(fields: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.waitFor((r) => matchesJson(r.line, fields)).then((r) => JSON.parse(r.line) as Record<string, unknown>);
  }
}

export function matchesJson(line: string, fields: Record<string, unknown>): boolean {
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    return Object.entries(fields).every(([key, want]) => value[key] === want);
  } catch {
    return false;
  }
}

/** Every keeper a test starts is ended after it (its CLI and files too). */
export function useKeepers(): {
  start(launcher: KeeperLauncher, options: StartKeeperOptions): Promise<KeeperRecord>;
  startFull(launcher: KeeperLauncher, options: StartKeeperOptions, warm?: WarmKeeper): Promise<StartedKeeper>;
  attach(record: KeeperRecord, options: Partial<AttachOptions> & { sink?: Sink }): Promise<KeeperConnection>;
} {
  const records: KeeperRecord[] = [];
  const connections: KeeperConnection[] = [];
  afterEach(async () => {
    for (const connection of connections.splice(0)) await connection.detach();
    for (const record of records.splice(0)) {
      try {
        process.kill(record.keeper.pid, "SIGKILL");
      } catch {
        // already ended
      }
      await reapGoneKeeper(record, clock);
      rmSync(record.dir, { recursive: true, force: true });
    }
  });
  return {
    async start(launcher, options) {
      return (await this.startFull(launcher, options)).record;
    },
    async startFull(launcher, options, warm) {
      const started = await startKeeper(launcher, options, warm);
      records.push(started.record);
      return started;
    },
    async attach(record, options) {
      const sink = options.sink ?? new Sink();
      const connection = await attachKeeper(record, {
        clientId: "test",
        fence: 1,
        fromSeq: 0,
        onLine: sink.onLine,
        onGap: sink.onGap,
        clock,
        ...options,
      });
      connections.push(connection);
      return connection;
    },
  };
}
