// A run nobody typed stays what it is across a restart: a webhook's run, taken in again after
// Telecode stopped in its middle, keeps the webhook's title, stays unattended (a tool that
// would ask a person is declined, no buttons appear), and its end is recorded for the webhook.
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../../src/store/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

const SECRET = "webhook-secret-for-kept-runs";
const OWNER = 1001;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({
    env: { HOOK_SECRET: SECRET },
    toml: [
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
});
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
    expect(await deliver({ version: "v42" })).toBe(202);
    const store = openStore(rig.dataDir);
    try {
      await vi.waitFor(
        () => {
          expect(store.runs.recent(OWNER, 1)[0]?.keeperId ?? null).not.toBeNull();
          expect(rig.api.requests("KEPTHOOK").length).toBeGreaterThanOrEqual(1);
        },
        { timeout: 30_000, interval: 25 },
      );
    } finally {
      store.close();
    }
    await rig.app.stop();
    await rig.startApp();

    const answer = await rig.botMessage(OWNER, isAnswer("KEPTHOOK-ANSWER"));
    // The progress message, edited to its summary after the restart, still says which webhook ran.
    const summary = rig.tg.message(OWNER, answer.replyToMessageId ?? -1);
    expect(summary?.text).toContain("🪝 webhook deploys: KEPTHOOK check the deploy of «version»");
    // Unattended still: the file tool was declined without asking anyone.
    expect(rig.tg.botMessages(OWNER).some((m) => m.buttons.some((b) => b.text === "✅ Allow"))).toBe(false);
    expect(existsSync(join(rig.ws.cwd, "unattended-after-restart.txt"))).toBe(false);
    const declined = rig.api.requests("KEPTHOOK")[2]?.toolResults[0];
    expect(declined?.isError).toBe(true);
    expect(declined?.text).toContain("this is an unattended run");
    // The webhook's own hook on the run came back with it: its result is recorded.
    await vi.waitFor(
      async () => expect(await rig.command(OWNER, "status")).toMatch(/webhook deploys[^\n]*\n?.*last: ok/),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
  }, 120_000);
});
