// A run nobody typed stays what it is across a restart: a webhook's or a schedule's run, taken
// in again after Telecode stopped in its middle, keeps its trigger's title (and a schedule's
// buttons), stays unattended (a tool that would ask a person is declined, no Allow button
// appears), and its end is recorded for its trigger (its last result in /status).
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../../src/store/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { createFakeClock } from "../support/fake-clock.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

const SECRET = "webhook-secret-for-kept-runs";
const OWNER = 1001;
const SCHEDULED_CHAT = 1002;
const clock = createFakeClock(Date.parse("2026-06-01T08:30:30Z"));

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({
    env: { HOOK_SECRET: SECRET },
    scheduleClock: clock,
    toml: [
      "[[schedules]]",
      'id = "hourly-check"',
      'cron = "0 * * * *"',
      'timezone = "UTC"',
      'prompt = "KEPTSCHED look at the queue"',
      `chat_id = ${SCHEDULED_CHAT}`,
      "[webhook_server]",
      'listen = "127.0.0.1:0"',
      "[[webhooks]]",
      'id = "deploys"',
      'path = "/hooks/deploys"',
      'auth = "hmac-sha256"',
      'secret_env = "HOOK_SECRET"',
      'prompt = "KEPTHOOK check the deploy of {{version}}"',
    ],
  });
  rig.user(OWNER);
  rig.user(SCHEDULED_CHAT);
});

/** Waits until the chat's newest run has a keeper and the CLI asked the model `tag`'s first turn. */
async function underWay(chatId: number, tag: string): Promise<void> {
  const store = openStore(rig.dataDir);
  try {
    await vi.waitFor(
      () => {
        expect(store.runs.recent(chatId, 1)[0]?.keeperId ?? null).not.toBeNull();
        expect(rig.api.requests(tag).length).toBeGreaterThanOrEqual(1);
      },
      { timeout: 30_000, interval: 25 },
    );
  } finally {
    store.close();
  }
}

/**
 * Declined without asking: no Allow button in the chat, the file not made, the model told why,
 * and the chat told once, on the tool's line in the run's summary (no message of its own).
 */
async function declinedUnattended(chatId: number, tag: string, file: string): Promise<void> {
  expect(rig.tg.botMessages(chatId).some((m) => m.buttons.some((b) => b.text === "✅ Allow"))).toBe(false);
  expect(existsSync(join(rig.ws.cwd, file))).toBe(false);
  const declined = rig.api.requests(tag)[2]?.toolResults[0];
  expect(declined?.isError).toBe(true);
  expect(declined?.text).toContain("this is an unattended run");
  await vi.waitFor(
    () => {
      const told = rig.tg
        .botMessages(chatId)
        .filter((m) => m.text.includes("— not allowed: nobody was watching this run"));
      expect(told.map((m) => m.text.split("\n")[1])).toEqual([expect.stringMatching(/^✅ Done/)]);
    },
    { timeout: 10_000, interval: 50 },
  );
  expect(rig.tg.botMessages(chatId).some((m) => m.text.startsWith("ℹ️"))).toBe(false);
}
/**
 * Starts the run `tag` names with `start`, restarts Telecode while its first command runs, and
 * returns the progress message its answer replies to (edited to the run's summary by then).
 */
async function acrossRestart(chatId: number, tag: string, start: () => Promise<void>) {
  await start();
  await underWay(chatId, tag);
  await rig.app.stop();
  await rig.startApp();
  const answer = await rig.botMessage(chatId, isAnswer(`${tag}-ANSWER`));
  return rig.tg.message(chatId, answer.replyToMessageId ?? -1);
}

afterAll(async () => {
  await rig?.dispose();
});

async function deliver(payload: Record<string, unknown>): Promise<number> {
  const server = rig.app.webhookServer;
  if (server === null) throw new Error("the webhook server is not running");
  const body = JSON.stringify(payload);
  const response = await fetch(`http://127.0.0.1:${server.address.port}/hooks/deploys`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-delivery": "kept-delivery-1",
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
  });
  return response.status;
}

describe("a webhook's run across a restart", () => {
  it("keeps its title, stays unattended, and its end is recorded for the webhook", async () => {
    rig.script("KEPTHOOK", [
      // sleep and echo need no approval: the command runs while Telecode restarts.
      reply.bash("sleep 3 && echo deploy-checked", "Wait for the deploy"),
      reply.bash("touch unattended-after-restart.txt", "Create a file"),
      reply.text("KEPTHOOK-ANSWER: the deploy is fine"),
    ]);
    const summary = await acrossRestart(OWNER, "KEPTHOOK", async () => {
      expect(await deliver({ version: "v42" })).toBe(202);
    });
    // The progress message, edited to its summary after the restart, still says which webhook ran.
    expect(summary?.text).toContain("🪝 webhook deploys: KEPTHOOK check the deploy of v42");
    await declinedUnattended(OWNER, "KEPTHOOK", "unattended-after-restart.txt");
    // The webhook's own hook on the run came back with it: its result is recorded.
    await vi.waitFor(async () => expect(await rig.command(OWNER, "status")).toMatch(/webhook deploys[^]*?last: ok/), {
      timeout: 10_000,
      interval: 100,
    });
  }, 120_000);
});

describe("a schedule's run across a restart", () => {
  it("keeps its title and buttons, stays unattended, and its end is recorded for the schedule", async () => {
    rig.script("KEPTSCHED", [
      reply.bash("sleep 3 && echo queue-read", "Read the queue"),
      reply.bash("touch scheduled-after-restart.txt", "Create a file"),
      reply.text("KEPTSCHED-ANSWER: the queue is empty"),
    ]);
    const summary = await acrossRestart(SCHEDULED_CHAT, "KEPTSCHED", () => {
      clock.advance(30 * 60 * 1000);
      return Promise.resolve();
    });
    expect(summary?.text).toContain("⏰ schedule hourly-check · run 1");
    expect(summary?.buttons.map((b) => b.text)).toContain("⏸ Pause");
    await declinedUnattended(SCHEDULED_CHAT, "KEPTSCHED", "scheduled-after-restart.txt");
    await vi.waitFor(
      async () => expect(await rig.command(SCHEDULED_CHAT, "status")).toMatch(/schedule "?hourly-check[^]*?last: ok/),
      { timeout: 10_000, interval: 100 },
    );
  }, 120_000);
});
