// Webhooks end to end (issue 10): a real HTTP POST signed like GitHub's to the started app's
// webhook server starts an unattended run through the real CLI (fake Messages API), shown in the
// fake Bot API chat under the webhook's title; bad signatures and replays start nothing; /pause
// keeps deliveries (across a restart) until /resume; caps stop a costly run and refuse a
// delivery past the day's cap; /status lists schedules and webhooks; reloads restart the server.
// A delivery whose handling fails (a damaged database) is said to have failed in its chat.
import Database from "better-sqlite3";
import { createHmac } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTelecode } from "../../src/cli/compose/telecode-app.js";
import { loadConfig } from "../../src/config/index.js";
import { silentLogger } from "../../src/ports/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

const SECRET = "webhook-secret-for-tests";
const OWNER = 1001;
const CAPPED_CHAT = 1002;
const COSTLY_CHAT = 1003;
const QUEUED_CAP_CHAT = 1004;
const FRAGILE_CHAT = 1005;
const GONE_CHAT = 1006;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({
    env: { GITHUB_WEBHOOK_SECRET: SECRET },
    toml: [
      "[webhook_server]",
      'listen = "127.0.0.1:0"',
      "[[webhooks]]",
      'id = "github-push"',
      'path = "/hooks/github"',
      'auth = "hmac-sha256"',
      'secret_env = "GITHUB_WEBHOOK_SECRET"',
      'event = "push"',
      'prompt = "HOOKRUN review the push to {{ref}} by {{pusher.name}}"',
      "[[webhooks]]",
      'id = "nightly"',
      'path = "/hooks/nightly"',
      'auth = "hmac-sha256"',
      'secret_env = "GITHUB_WEBHOOK_SECRET"',
      'prompt = "NIGHTLY check {{note}}"',
      `chat_id = ${CAPPED_CHAT}`,
      "max_cost_usd_per_day = 0.01",
      "[[webhooks]]",
      'id = "build"',
      'path = "/hooks/build"',
      'auth = "hmac-sha256"',
      'secret_env = "GITHUB_WEBHOOK_SECRET"',
      'prompt = "BUILD check {{note}}"',
      `chat_id = ${QUEUED_CAP_CHAT}`,
      "max_cost_usd_per_day = 0.01",
      "[[webhooks]]",
      'id = "costly"',
      'path = "/hooks/costly"',
      'auth = "hmac-sha256"',
      'secret_env = "GITHUB_WEBHOOK_SECRET"',
      'prompt = "COSTLY look into {{note}}"',
      `chat_id = ${COSTLY_CHAT}`,
      "max_cost_usd_per_run = 0.5",
      "[[webhooks]]",
      'id = "fragile"',
      'path = "/hooks/fragile"',
      'auth = "hmac-sha256"',
      'secret_env = "GITHUB_WEBHOOK_SECRET"',
      'prompt = "FRAGILE look into {{note}}"',
      `chat_id = ${FRAGILE_CHAT}`,
      "max_cost_usd_per_day = 5",
      "[[webhooks]]",
      'id = "gone"',
      'path = "/hooks/gone"',
      'auth = "hmac-sha256"',
      'secret_env = "GITHUB_WEBHOOK_SECRET"',
      'prompt = "GONE look into {{note}}"',
      `chat_id = ${GONE_CHAT}`,
      // A schedule that is not due for years, for what /status lists.
      "[[schedules]]",
      'id = "leap-day"',
      'cron = "0 9 29 2 *"',
      'timezone = "Asia/Tokyo"',
      'prompt = "LEAPDAY look back"',
      `chat_id = ${OWNER}`,
    ],
  });
  rig.user(OWNER);
  rig.user(CAPPED_CHAT);
  rig.user(COSTLY_CHAT);
  rig.user(QUEUED_CAP_CHAT);
  rig.user(FRAGILE_CHAT);
  rig.user(GONE_CHAT);
});
afterAll(async () => {
  await rig?.dispose();
});

const sign = (body: string, secret = SECRET): string =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** POSTs a payload to the running app's webhook server, signed unless told otherwise. */
async function deliver(
  path: string,
  payload: Record<string, unknown>,
  options: { id: string; secret?: string; event?: string },
): Promise<number> {
  const server = rig.app.webhookServer;
  if (server === null) throw new Error("the webhook server is not running");
  const body = JSON.stringify(payload);
  const response = await fetch(`http://127.0.0.1:${server.address.port}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": options.event ?? "push",
      "x-github-delivery": options.id,
      "x-hub-signature-256": sign(body, options.secret),
    },
    body,
  });
  return response.status;
}

const push = (pusher: string) => ({ ref: "refs/heads/main", pusher: { name: pusher } });

describe("webhooks (real HTTP, real CLI, fake Bot API)", () => {
  it("runs a signed delivery in the webhook's chat under its title, with the payload as untrusted input", async () => {
    rig.script("HOOK-ONE", [reply.text("HOOK-ONE-ANSWER: the push looks fine")]);
    expect(await deliver("/hooks/github", push("HOOK-ONE"), { id: "delivery-1" })).toBe(202);

    const answer = await rig.botMessage(OWNER, isAnswer("HOOK-ONE-ANSWER"));
    const summary = rig.tg.message(OWNER, answer.replyToMessageId ?? -1);
    expect(summary?.text).toContain(
      "🪝 webhook github-push · push: HOOKRUN review the push to refs/heads/main by HOOK-ONE",
    );
    const prompt = rig.api.requests("HOOK-ONE")[0]?.lastPrompt ?? "";
    expect(prompt).toContain('[Telecode webhook "github-push", event push');
    expect(prompt).toContain("<untrusted_external_input>");
    expect(prompt).toContain('pusher.name: "HOOK-ONE"');
  }, 90_000);

  it("starts nothing for a bad signature, and one run for a delivery sent twice", async () => {
    rig.script("HOOK-BAD", [reply.text("HOOK-BAD-ANSWER")]);
    expect(await deliver("/hooks/github", push("HOOK-BAD"), { id: "delivery-bad", secret: "wrong" })).toBe(401);

    rig.script("HOOK-TWICE", [reply.text("HOOK-TWICE-ANSWER 1"), reply.text("HOOK-TWICE-ANSWER 2")]);
    expect(await deliver("/hooks/github", push("HOOK-TWICE"), { id: "delivery-2" })).toBe(202);
    // GitHub's "Redeliver": acknowledged, ignored.
    expect(await deliver("/hooks/github", push("HOOK-TWICE"), { id: "delivery-2" })).toBe(200);
    await rig.botMessage(OWNER, isAnswer("HOOK-TWICE-ANSWER 1"));

    expect(rig.api.requests("HOOK-BAD")).toHaveLength(0);
    expect(rig.api.requests("HOOK-TWICE")).toHaveLength(1);
    expect(rig.tg.botMessages(OWNER).filter(isAnswer("HOOK-TWICE-ANSWER"))).toHaveLength(1);
  }, 90_000);

  it("queues a delivery that arrives while the chat's project is busy, and runs it next", async () => {
    rig.script("HOOK-SLOW", [reply.text("HOOK-SLOW-ANSWER", { delayMs: 1500 })]);
    rig.script("HOOK-NEXT", [reply.text("HOOK-NEXT-ANSWER")]);
    expect(await deliver("/hooks/github", push("HOOK-SLOW"), { id: "slow-1" })).toBe(202);
    expect(await deliver("/hooks/github", push("HOOK-NEXT"), { id: "next-1" })).toBe(202);
    await rig.botMessage(OWNER, isAnswer("HOOK-NEXT-ANSWER"));
    const answers = rig.tg.botMessages(OWNER).filter((m) => isAnswer(/HOOK-(SLOW|NEXT)-ANSWER/)(m));
    expect(answers.map((m) => m.text.match(/HOOK-\w+-ANSWER/)?.[0])).toEqual(["HOOK-SLOW-ANSWER", "HOOK-NEXT-ANSWER"]);
    // While it waited, its message said which delivery it is, not only that something is queued.
    const next = rig.tg
      .botMessages(OWNER)
      .find((m) => m.text.startsWith("🪝 webhook github-push") && m.text.includes("HOOK-NEXT"));
    expect(next?.revisions[0]?.text).toBe(
      "🪝 webhook github-push · push: HOOKRUN review the push to refs/heads/main by HOOK-NEXT\n⏳ Queued — will run after the current task.",
    );
  }, 90_000);

  it("keeps a delivery that comes while paused, across a restart, and runs it on /resume", async () => {
    expect(await rig.command(OWNER, "pause")).toContain("Every schedule, loop and webhook is held");
    rig.script("HOOK-HELD", [reply.text("HOOK-HELD-ANSWER: reviewed after the pause")]);
    expect(await deliver("/hooks/github", push("HOOK-HELD"), { id: "delivery-held" })).toBe(202);
    await rig.botMessage(OWNER, "received a delivery while triggers are paused");
    expect(rig.app.store.triggers.heldCount()).toBe(1);

    // The chat's /pause outlives a restart; the kept delivery does too.
    await rig.app.stop();
    await rig.startApp();
    const status = await rig.command(OWNER, "status");
    expect(status).toContain("Triggers: ⏸ paused");
    // The address it listens on now: the config's port 0 stands for the one the system gave.
    expect(status).toContain(
      `webhook github-push · on each delivery to http://127.0.0.1:${rig.app.webhookServer!.address.port}/hooks/github`,
    );
    expect(status).toContain("last: held while paused");
    expect(status).toMatch(
      /schedule leap-day · next at 09:00 on 29 February 20\d\d \(Asia\/Tokyo\) \(held: triggers are paused/,
    );
    expect(rig.api.requests("HOOK-HELD")).toHaveLength(0);

    expect(await rig.command(OWNER, "resume")).toContain("The webhook delivery kept while paused runs now.");
    await rig.botMessage(OWNER, isAnswer("HOOK-HELD-ANSWER"));
    expect(rig.app.store.triggers.heldCount()).toBe(0);
    expect(await rig.command(OWNER, "status")).toContain("webhook github-push · on each delivery");
  }, 120_000);

  it("holds a webhook whose runs would all fail, keeps its deliveries, and runs them on /resume once fixed", async () => {
    const away = `${rig.ws.cwd}-away`;
    await rename(rig.ws.cwd, away);
    try {
      expect(await deliver("/hooks/gone", { note: "GONE-ONE" }, { id: "gone-1" })).toBe(202);
      const held = await rig.botMessage(GONE_CHAT, "is held");
      expect(held.text).toBe(
        "⏸ Webhook gone is held: its runs would fail the same way until that is fixed. This delivery is kept, with any that come meanwhile; once it is fixed, send /resume to run them.",
      );
      // The run's own message says what is wrong, first.
      const failure = rig.tg.botMessages(GONE_CHAT).find((m) => m.text.startsWith("❌"));
      expect(failure?.text).toContain("does not exist, so Claude Code was not started there.");
      expect(failure!.messageId).toBeLessThan(held.messageId);

      expect(await deliver("/hooks/gone", { note: "GONE-TWO" }, { id: "gone-2" })).toBe(202);
      await rig.tg.waitFor(() => rig.app.store.triggers.heldCount() === 2, { what: "both deliveries kept" });
      const status = await rig.command(GONE_CHAT, "status");
      expect(status).toContain(
        `webhook gone · on each delivery to http://127.0.0.1:${rig.app.webhookServer!.address.port}/hooks/gone (⏸ held until this is fixed, then /resume: The project's folder ${rig.ws.cwd} does not exist, so Claude Code was not started there.) · last: failed at`,
      );
    } finally {
      await rename(away, rig.ws.cwd);
    }
    rig.script("GONE-ONE", [reply.text("GONE-ONE-ANSWER")]);
    rig.script("GONE-TWO", [reply.text("GONE-TWO-ANSWER")]);
    expect(await rig.command(GONE_CHAT, "resume")).toBe(
      "▶️ Triggers are not paused. The 2 webhook deliveries kept until a failure was fixed run now, oldest first.",
    );
    await rig.botMessage(GONE_CHAT, isAnswer("GONE-TWO-ANSWER"));
    await rig.botMessage(GONE_CHAT, isAnswer("GONE-ONE-ANSWER"));
    // Told once; the delivery that came while held started nothing and said nothing.
    expect(rig.tg.botMessages(GONE_CHAT).filter((m) => /is held|^❌/.test(m.text))).toHaveLength(2);
    expect(rig.app.store.triggers.heldCount()).toBe(0);
    expect(await rig.command(GONE_CHAT, "status")).not.toContain("held until");
  }, 120_000);

  it("refuses deliveries once the webhook's day cap is reached, and says so once", async () => {
    // Enough tokens that one run costs more than the webhook's $0.01 a day.
    rig.script("NIGHT-ONE", [reply.text("NIGHT-ONE-ANSWER", { inputTokens: 20_000, outputTokens: 500 })]);
    expect(await deliver("/hooks/nightly", { note: "NIGHT-ONE" }, { id: "night-1" })).toBe(202);
    await rig.botMessage(CAPPED_CHAT, isAnswer("NIGHT-ONE-ANSWER"));
    const told = await rig.botMessage(CAPPED_CHAT, "reached its day cap");
    expect(told.text).toContain("webhooks.max_cost_usd_per_day");

    rig.script("NIGHT-TWO", [reply.text("NIGHT-TWO-ANSWER")]);
    expect(await deliver("/hooks/nightly", { note: "NIGHT-TWO" }, { id: "night-2" })).toBe(202);
    await rig.tg.waitFor(() => rig.app.store.triggers.lastResults().get("webhook:nightly")?.result === "day_capped", {
      what: "the second delivery refused by the day cap",
    });
    expect(rig.api.requests("NIGHT-TWO")).toHaveLength(0);
    expect(rig.tg.botMessages(CAPPED_CHAT).filter((m) => m.text.includes("reached its day cap"))).toHaveLength(1);
    expect(await rig.command(CAPPED_CHAT, "status")).toContain("webhook nightly");
  }, 90_000);

  it("says in the chat that a delivery could not be run, and runs its redelivery once it can", async () => {
    // Another connection damages the database under the running app: the day's costs are gone.
    const other = new Database(rig.app.store.path);
    try {
      other.exec("ALTER TABLE webhook_day_costs RENAME TO webhook_day_costs_away");
      expect(await deliver("/hooks/fragile", { note: "FRAGILE-LOST" }, { id: "fragile-lost" })).toBe(202);
      const told = await rig.botMessage(FRAGILE_CHAT, "could not run a delivery");
      expect(told.text).toBe(
        "⚠️ Webhook fragile could not run a delivery (push): Telecode's database failed (no such table: webhook_day_costs). Nothing ran for it. Once `telecode doctor` on the computer running Telecode finds nothing wrong, redeliver it from its sender if it still matters.",
      );
      expect(rig.app.store.triggers.lastResults().get("webhook:fragile")?.result).toBe("failed");
    } finally {
      other.exec("ALTER TABLE webhook_day_costs_away RENAME TO webhook_day_costs");
      other.close();
    }
    // GitHub's "Redeliver" sends the same delivery id: it is run, not taken for a replay.
    rig.script("FRAGILE-LOST", [reply.text("FRAGILE-LOST-ANSWER")]);
    expect(await deliver("/hooks/fragile", { note: "FRAGILE-LOST" }, { id: "fragile-lost" })).toBe(202);
    await rig.botMessage(FRAGILE_CHAT, isAnswer("FRAGILE-LOST-ANSWER"));
    expect(rig.api.requests("FRAGILE-LOST")).toHaveLength(1);
  });

  it("does not start a queued delivery once the run before it reached the day cap, and says why", async () => {
    // The first run costs more than the webhook's $0.01 a day; the second waits behind it.
    rig.script("BUILD-ONE", [
      reply.text("BUILD-ONE-ANSWER", { inputTokens: 20_000, outputTokens: 500, delayMs: 1500 }),
    ]);
    rig.script("BUILD-TWO", [reply.text("BUILD-TWO-ANSWER")]);
    expect(await deliver("/hooks/build", { note: "BUILD-ONE" }, { id: "build-1" })).toBe(202);
    expect(await deliver("/hooks/build", { note: "BUILD-TWO" }, { id: "build-2" })).toBe(202);
    await rig.botMessage(QUEUED_CAP_CHAT, isAnswer("BUILD-ONE-ANSWER"));
    const stopped = await rig.botMessage(QUEUED_CAP_CHAT, /reached its day cap \(\$0\.01\) while this delivery waited/);
    expect(stopped.text).toContain("⚠️ Not run: webhook build reached its day cap ($0.01) while this delivery waited.");
    // The details are the cap notice's, said once.
    expect(stopped.text).not.toContain("raise the cap");
    const notice = await rig.botMessage(QUEUED_CAP_CHAT, "reached its day cap:");
    expect(notice.text).toMatch(
      /Webhook build reached its day cap: its runs cost \$0\.\d+ today, past the \$0\.01 a day that webhooks\.max_cost_usd_per_day allows\./,
    );
    expect(notice.text).toContain("raise the cap in the config");
    expect(rig.app.store.triggers.lastResults().get("webhook:build")?.result).toBe("day_capped");
    expect(rig.api.requests("BUILD-TWO")).toHaveLength(0);
    // The chat is told of the cap once, beside the delivery's own message saying why it did not run.
    const notices = rig.tg.botMessages(QUEUED_CAP_CHAT).filter((m) => m.text.includes("reached its day cap:"));
    expect(notices).toHaveLength(1);
  }, 90_000);

  it("cancels a run mid-way once its cost passes the webhook's per-run cap, and says which cap", async () => {
    rig.script("COSTLY-ONE", [
      // The first model call reports a million input tokens: several dollars at list prices.
      {
        kind: "message",
        blocks: [
          { type: "text", text: "Looking into it." },
          { type: "tool_use", name: "Bash", input: { command: "echo checked", description: "Check" } },
        ],
        inputTokens: 1_000_000,
      },
      // A slow second call: the run is stopped while it waits.
      reply.text("COSTLY-NEVER", { delayMs: 20_000 }),
    ]);
    expect(await deliver("/hooks/costly", { note: "COSTLY-ONE" }, { id: "costly-1" })).toBe(202);
    const told = await rig.botMessage(COSTLY_CHAT, "Stopped this run of webhook costly");
    expect(told.text).toMatch(/it had cost about \$\d+\.\d+, past its cap of \$0\.50(00)? per run/);
    expect(told.text).toContain("webhooks.max_cost_usd_per_run");
    await rig.tg.waitFor(() => rig.app.store.triggers.lastResults().get("webhook:costly")?.result === "capped", {
      what: "the run cancelled by its cap",
    });
    expect(rig.tg.botMessages(COSTLY_CHAT).some(isAnswer("COSTLY-NEVER"))).toBe(false);
    // The estimate prices tokens as Claude Code does: the run's summary shows the CLI's own figure, the same.
    const about = /about (\$\d+\.\d+)/.exec(told.text)?.[1];
    const summary = await rig.botMessage(
      COSTLY_CHAT,
      (m) => m.text.startsWith("🪝 webhook costly") && m.text.includes("⏹"),
    );
    expect(summary.text).toContain(`· ${about}`);
    expect(await rig.command(COSTLY_CHAT, "status")).toContain("webhook costly · on each delivery");
  }, 90_000);

  it("restarts the server on a reload that changes the webhooks, and says so when it cannot listen", async () => {
    const original = await readFile(rig.configPath, "utf8");
    const reload = async (text: string): Promise<void> => {
      await writeFile(rig.configPath, text);
      rig.config = loadConfig({ configPath: rig.configPath, env: { HOME: rig.ws.home } }).config;
      await rig.app.configChanged();
    };
    await reload(original.replace('path = "/hooks/github"', 'path = "/hooks/moved"'));
    expect(await deliver("/hooks/github", push("HOOK-GONE"), { id: "gone-1" })).toBe(404);
    rig.script("HOOK-MOVED", [reply.text("HOOK-MOVED-ANSWER")]);
    expect(await deliver("/hooks/moved", push("HOOK-MOVED"), { id: "moved-1" })).toBe(202);
    await rig.botMessage(OWNER, isAnswer("HOOK-MOVED-ANSWER"));

    // Something else holds the address: Telegram goes on, and the chat is told why webhooks do not.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    try {
      const busyPort = (blocker.address() as AddressInfo).port;
      await reload(original.replace('listen = "127.0.0.1:0"', `listen = "127.0.0.1:${busyPort}"`));
      expect(rig.app.webhookServer).toBeNull();
      const told = await rig.botMessage(OWNER, "Webhooks are off");
      expect(told.text).toBe(
        `⚠️ Webhooks are off. Telecode could not listen for webhooks on 127.0.0.1:${busyPort}: another program uses that address (EADDRINUSE). On the computer running Telecode, stop what uses that address, or set webhook_server.listen to another.`,
      );
      // /status does not list an address nothing listens on.
      const status = await rig.command(OWNER, "status");
      expect(status).toContain(
        `webhook github-push · ⚠️ off, nothing is listening. Telecode could not listen for webhooks on 127.0.0.1:${busyPort}:`,
      );
      expect(status).not.toContain("on each delivery to");
    } finally {
      blocker.close();
    }
    await reload(original);
    expect(rig.app.webhookServer).not.toBeNull();
    expect(await rig.command(OWNER, "status")).toContain("webhook github-push · on each delivery to");
  }, 90_000);

  it("does not start while a webhook's secret variable is unset, and names the variable", async () => {
    await expect(startTelecode({ config: () => rig.config, env: {}, logger: silentLogger })).rejects.toMatchObject({
      code: "triggers.secret_missing",
      message: expect.stringContaining("GITHUB_WEBHOOK_SECRET") as unknown,
    });
  });
});
