// Who may trigger a webhook, over real HTTP on 127.0.0.1: GitHub signatures (checked against
// GitHub's published example), bearer tokens, none on loopback, and missing secret variables.
import { describe, expect, it } from "vitest";
import { startWebhookServer, TriggerError } from "../../src/triggers/index.js";
import { silentLogger } from "../../src/ports/index.js";
import { GITHUB, githubHeaders, SECRET, SERVER, signature, useWebhookServer, webhook } from "./webhook-harness.js";

const start = useWebhookServer();
const PUSH = JSON.stringify({ ref: "refs/heads/main", pusher: { name: "octocat" } });

describe("hmac-sha256", () => {
  it("accepts GitHub's example signature and hands the delivery on", async () => {
    // docs.github.com "Validating webhook deliveries": this secret and body give this signature.
    expect(signature("Hello, World!")).toBe("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
    const hooks = await start();
    const response = await hooks.post("/hooks/github", { body: PUSH, headers: githubHeaders(PUSH, "d-1") });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
    const trigger = await hooks.nextTrigger();
    expect(trigger).toMatchObject({
      webhookId: "github",
      deliveryId: "d-1",
      event: "push",
      project: "app",
      chatId: 111,
      overrides: { permissionMode: "plan", maxCostUsdPerRun: 1 },
    });
    expect(trigger.prompt).toContain('ref: "refs/heads/main"');
    expect(trigger.prompt).toContain('pusher.name: "octocat"');
  });

  it("refuses a wrong, missing or malformed signature with a bare 401", async () => {
    const hooks = await start();
    const headers = githubHeaders(PUSH, "d-1");
    const cases = [
      { ...headers, "x-hub-signature-256": signature(PUSH, "not the secret") },
      { ...headers, "x-hub-signature-256": signature(`${PUSH} `) },
      { ...headers, "x-hub-signature-256": "sha256=zz" },
      { ...headers, "x-hub-signature-256": signature(PUSH).replace("sha256=", "sha1=") },
      Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "x-hub-signature-256")),
    ];
    for (const bad of cases) {
      const response = await hooks.post("/hooks/github", { body: PUSH, headers: bad });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe("");
    }
    // A good delivery afterwards is the first and only one handed on.
    expect((await hooks.post("/hooks/github", { body: PUSH, headers: githubHeaders(PUSH, "d-2") })).status).toBe(202);
    expect((await hooks.nextTrigger()).deliveryId).toBe("d-2");
    await hooks.server.stop();
    expect(hooks.triggers).toHaveLength(1);
    const refusals = hooks.logLines().filter((l) => l["event"] === "webhook.refused");
    expect(refusals).toHaveLength(cases.length);
    expect(refusals[0]).toMatchObject({ webhookId: "github", status: 401, reason: "auth", remote: "127.0.0.1" });
    expect(hooks.logText()).not.toContain(SECRET);
  });

  it("reads GitHub's form encoding, signed over the raw body", async () => {
    const hooks = await start();
    const body = `payload=${encodeURIComponent(PUSH)}`;
    const headers = { ...githubHeaders(body, "d-1"), "content-type": "application/x-www-form-urlencoded" };
    expect((await hooks.post("/hooks/github", { body, headers })).status).toBe(202);
    expect((await hooks.nextTrigger()).prompt).toContain('pusher.name: "octocat"');
  });
});

describe("bearer", () => {
  it("accepts only Authorization: Bearer with the secret", async () => {
    const deploy = webhook({
      id: "deploy",
      path: "/hooks/deploy",
      auth: "bearer",
      secretEnv: "DEPLOY_TOKEN",
      prompt: "Check the deploy.",
    });
    const hooks = await start({ webhooks: [deploy], env: { DEPLOY_TOKEN: "t0ken-with-enough-length" } });
    const statuses: number[] = [];
    for (const authorization of [
      "Bearer wrong-token-of-some-length",
      "Bearer t0ken-with-enough-lengt",
      "Basic dDBrZW4td2l0aC1lbm91Z2gtbGVuZ3Ro",
      "t0ken-with-enough-length",
    ])
      statuses.push((await hooks.post("/hooks/deploy", { headers: { authorization } })).status);
    statuses.push((await hooks.post("/hooks/deploy")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // No body at all is fine for a prompt without fields.
    const ok = await hooks.post("/hooks/deploy", { headers: { authorization: "bearer t0ken-with-enough-length" } });
    expect(ok.status).toBe(202);
    expect(await hooks.nextTrigger()).toMatchObject({
      webhookId: "deploy",
      deliveryId: null,
      event: null,
      prompt: "Check the deploy.",
    });
    expect(hooks.logText()).not.toContain("t0ken-with-enough-length");
  });
});

describe("none", () => {
  it("needs no credentials on a loopback address", async () => {
    const open = webhook({ id: "local", path: "/hooks/local", auth: "none", secretEnv: null, prompt: "Build {{ref}}" });
    const hooks = await start({ webhooks: [open], env: {} });
    const body = JSON.stringify({ ref: "v1.2" });
    const response = await hooks.post("/hooks/local", { body, headers: { "content-type": "application/json" } });
    expect(response.status).toBe(202);
    expect((await hooks.nextTrigger()).prompt).toContain('ref: "v1.2"');
  });
});

describe("secrets", () => {
  it("come only from the environment: a missing variable stops the start, naming it", async () => {
    const deploy = webhook({ id: "deploy", path: "/hooks/deploy", auth: "bearer", secretEnv: "DEPLOY_TOKEN" });
    const error = await startWebhookServer({
      server: SERVER,
      webhooks: [GITHUB, deploy],
      env: { DEPLOY_TOKEN: "" },
      logger: silentLogger,
      onTrigger: () => undefined,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TriggerError);
    expect((error as TriggerError).code).toBe("triggers.secret_missing");
    expect((error as TriggerError).message).toBe(
      "The webhook secret variables are not set: HOOK_SECRET (webhook github), DEPLOY_TOKEN (webhook deploy). Set them in the environment Telecode runs in (for a service, in its unit), or change webhooks.secret_env.",
    );
  });

  it("start nothing when no webhook is configured", async () => {
    const server = await startWebhookServer({
      server: SERVER,
      webhooks: [],
      env: {},
      logger: silentLogger,
      onTrigger: () => undefined,
    });
    expect(server).toBeNull();
  });
});
