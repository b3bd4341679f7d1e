// Issue 16, starts that never hang, with real processes: a Bot API that cannot be reached at
// start is said (where, why, when the next try is), tried again with backoff, and SIGTERM ends
// the wait at once; a Bot API that comes back is used.
import { createServer } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer } from "../telegram/bridge/rig.js";
import { USER_ID, useWorld } from "./helpers.js";

const newWorld = useWorld();

/** A loopback address nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}

const UNREACHABLE = /can't reach the Bot API at (\S+) \((\w+)\); retrying in (\d+) s\. Press Ctrl\+C to stop\./g;

describe("starting while the Bot API cannot be reached", () => {
  it("says so, keeps trying with growing waits, and stops at once on SIGTERM", async () => {
    const world = await newWorld();
    const apiRoot = await closedPortUrl();
    await world.writeConfig({ apiRoot });
    const serve = world.spawnTelecode(["--config", world.configPath]);
    const tries = await waitForLines(() => serve.stderr(), 2);
    expect(tries.map((m) => [m[1], m[2]])).toEqual([
      [apiRoot, "ECONNREFUSED"],
      [apiRoot, "ECONNREFUSED"],
    ]);
    expect(tries.map((m) => Number(m[3]))).toEqual([1, 2]);
    serve.child.kill("SIGTERM");
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain("telecode: stopping (SIGTERM)");
    expect(exit.stderr).not.toContain("running as @");
    expect(exit.stderr).not.toContain("without waiting");
  }, 120_000);

  it("starts once the Bot API answers again, and works as usual", async () => {
    const world = await newWorld([reply.text("Reached at last.")]);
    await world.writeConfig();
    world.tg.addUser({ id: USER_ID });
    world.tg.injectFault("getMe", { kind: "network" }, { times: 2 });
    world.tg.injectFault("getMe", { kind: "error", code: 502, description: "Bad Gateway" });
    const serve = world.spawnTelecode(["--config", world.configPath]);
    await serve.started;
    const tries = [...serve.stderr().matchAll(/can't reach the Bot API at \S+ \(([^)]+)\); retrying in (\d+) s/g)];
    expect(tries.map((m) => [m[1], Number(m[2])])).toEqual([
      ["ECONNRESET", 1],
      ["ECONNRESET", 2],
      ["502 Bad Gateway", 4],
    ]);
    world.tg.sendText(USER_ID, "Hello");
    await world.tg.waitForBotMessage(USER_ID, isAnswer("Reached at last."), { timeoutMs: 60_000 });
    // Its terminal closed: the same graceful stop as SIGTERM, not Node's sudden end.
    serve.child.kill("SIGHUP");
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain("telecode: stopping (SIGHUP)");
  }, 120_000);
});

/** Waits until stderr has `count` "can't reach" lines (each attempt prints one). */
function waitForLines(stderr: () => string, count: number): Promise<RegExpMatchArray[]> {
  return vi.waitFor(
    () => {
      const lines = [...stderr().matchAll(UNREACHABLE)];
      if (lines.length < count) throw new Error(`${lines.length} of ${count} lines so far: ${stderr()}`);
      return lines.slice(0, count);
    },
    { timeout: 60_000, interval: 50 },
  );
}
