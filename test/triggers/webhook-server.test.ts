// The webhook server over real HTTP on 127.0.0.1: 202 at once with the run handed on in the
// background, replayed deliveries ignored (also after a restart, through SQLite), the event
// filter, the body cap while reading, rate limits on an injected clock, and bare refusals.
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { GITHUB, githubHeaders, useWebhookServer, webhook } from "./webhook-harness.js";

const start = useWebhookServer();
const tempDir = useTempDirs("hooks-db");
const PUSH = JSON.stringify({ ref: "refs/heads/main", pusher: { name: "octocat" } });

/**
 * Sends `bytes` of body in 64 KiB chunks without ever ending the request, and resolves with the
 * status of the answer (which must therefore come before the body is complete).
 */
function uploadStatus(url: string, headers: Record<string, string>, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", ...headers } });
    req.on("response", (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    // Once answered, the server may close the connection under the rest of the upload.
    req.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 0; sent < bytes; sent += chunk.length) req.write(chunk);
  });
}

const deliver = (hooks: Awaited<ReturnType<typeof start>>, delivery: string, event = "push") =>
  hooks.post("/hooks/github", { body: PUSH, headers: githubHeaders(PUSH, delivery, event) });

describe("accepting a delivery", () => {
  it("answers 202 before the run is even queued, and a stop waits for the hand-off", async () => {
    let release = (): void => undefined;
    const queued = new Promise<void>((resolve) => (release = resolve));
    const hooks = await start({ onTrigger: () => queued });
    const response = await deliver(hooks, "d-1");
    expect(response.status).toBe(202);
    await hooks.nextTrigger();
    const stopping = hooks.server.stop().then(() => "stopped");
    // New requests are refused at once; the stop itself waits for the hand-off in progress.
    expect(
      await deliver(hooks, "d-2").then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused");
    expect(await Promise.race([stopping, Promise.resolve("still stopping")])).toBe("still stopping");
    release();
    expect(await stopping).toBe("stopped");
    expect(hooks.triggers.map((t) => t.deliveryId)).toEqual(["d-1"]);
  });

  it("keeps serving when the hand-off fails, logs the failure, and runs the failed one's redelivery", async () => {
    let failures = 1;
    const hooks = await start({
      onTrigger: (t) => {
        if (t.deliveryId === "d-1" && failures-- > 0) throw new Error("queue is full");
      },
    });
    expect((await deliver(hooks, "d-1")).status).toBe(202);
    expect((await deliver(hooks, "d-2")).status).toBe(202);
    // Not run, so not remembered: the same id again is a redelivery, not a replay.
    expect((await deliver(hooks, "d-1")).status).toBe(202);
    expect((await deliver(hooks, "d-1")).status).toBe(200);
    await hooks.server.stop();
    expect(hooks.triggers.map((t) => t.deliveryId)).toEqual(["d-1", "d-2", "d-1"]);
    const failure = hooks.logLines().find((l) => l["event"] === "webhook.handler_failed");
    expect(failure).toMatchObject({ webhookId: "github", deliveryId: "d-1", err: { message: "queue is full" } });
  });
});

describe("replay protection", () => {
  it("acknowledges a second delivery with the same id and starts nothing", async () => {
    const hooks = await start();
    expect((await deliver(hooks, "72d3162e-cc78-11e3-81ab-4c9367dc0958")).status).toBe(202);
    const again = await deliver(hooks, "72d3162e-cc78-11e3-81ab-4c9367dc0958");
    expect(again.status).toBe(200);
    expect(await again.text()).toBe("");
    expect((await deliver(hooks, "d-other")).status).toBe(202);
    await hooks.server.stop();
    expect(hooks.triggers.map((t) => t.deliveryId)).toEqual(["72d3162e-cc78-11e3-81ab-4c9367dc0958", "d-other"]);
  });

  it("remembers delivery ids across a restart through the SQLite store", async () => {
    const dir = tempDir();
    let store = openStore(dir);
    try {
      const first = await start({ deliveries: store.webhookDeliveries });
      expect((await deliver(first, "d-1")).status).toBe(202);
      await first.server.stop();
      store.close();

      store = openStore(dir);
      const second = await start({ deliveries: store.webhookDeliveries });
      expect((await deliver(second, "d-1")).status).toBe(200);
      expect((await deliver(second, "d-2")).status).toBe(202);
      await second.server.stop();
      expect(second.triggers.map((t) => t.deliveryId)).toEqual(["d-2"]);
      expect(store.webhookDeliveries.recent("github", 10)).toEqual(["d-2", "d-1"]);
    } finally {
      store.close();
    }
  });

  it("refuses a delivery id that is not a plain token", async () => {
    const hooks = await start();
    expect((await deliver(hooks, "x".repeat(200))).status).toBe(400);
    expect((await deliver(hooks, "a b")).status).toBe(400);
  });
});

describe("the event filter", () => {
  it("acknowledges other events and GitHub's ping without starting anything", async () => {
    const hooks = await start();
    expect((await deliver(hooks, "d-1", "issues")).status).toBe(200);
    expect((await deliver(hooks, "d-2", "ping")).status).toBe(200);
    const noEvent = await hooks.post("/hooks/github", {
      body: PUSH,
      headers: Object.fromEntries(Object.entries(githubHeaders(PUSH, "d-3")).filter(([n]) => n !== "x-github-event")),
    });
    expect(noEvent.status).toBe(200);
    expect((await deliver(hooks, "d-4", "push")).status).toBe(202);
    await hooks.server.stop();
    expect(hooks.triggers.map((t) => t.deliveryId)).toEqual(["d-4"]);
  });

  it("lets every event but ping through when the webhook has no filter", async () => {
    const hooks = await start({ webhooks: [webhook({ id: "any", path: "/hooks/github" })] });
    expect((await deliver(hooks, "d-1", "issues")).status).toBe(202);
    expect((await deliver(hooks, "d-2", "ping")).status).toBe(200);
    expect((await hooks.nextTrigger()).event).toBe("issues");
  });
});

describe("refusals", () => {
  it("answers an unknown path, or a GET, with a bare 404", async () => {
    const hooks = await start();
    for (const response of [
      await hooks.post("/hooks/gitlab", { body: PUSH, headers: githubHeaders(PUSH, "d-1") }),
      await hooks.post("/hooks/github/", { body: PUSH, headers: githubHeaders(PUSH, "d-2") }),
      await fetch(hooks.url("/hooks/github")),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("");
    }
  });

  it("answers a body that is not JSON with 415, and broken JSON with 400", async () => {
    const hooks = await start();
    const text = await hooks.post("/hooks/github", {
      body: PUSH,
      headers: { ...githubHeaders(PUSH, "d-1"), "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    const untyped = await hooks.post("/hooks/github", {
      body: new TextEncoder().encode(PUSH),
      headers: Object.fromEntries(Object.entries(githubHeaders(PUSH, "d-2")).filter(([n]) => n !== "content-type")),
    });
    expect(untyped.status).toBe(415);
    const broken = "{ not json";
    expect((await hooks.post("/hooks/github", { body: broken, headers: githubHeaders(broken, "d-3") })).status).toBe(
      400,
    );
    await hooks.server.stop();
    expect(hooks.triggers).toEqual([]);
  });

  it("refuses a 2 MiB body with 413 while it is still arriving", async () => {
    const hooks = await start();
    const twoMiB = 2 * 1_048_576;
    // Declared length, three quarters sent: refused from the headers alone.
    const declared = { "content-length": String(twoMiB) };
    expect(await uploadStatus(hooks.url("/hooks/github"), declared, (twoMiB * 3) / 4)).toBe(413);
    // Chunked and never finished: the answer can only come from counting while reading.
    expect(await uploadStatus(hooks.url("/hooks/github"), { "transfer-encoding": "chunked" }, twoMiB)).toBe(413);
    await hooks.server.stop();
    expect(hooks.triggers).toEqual([]);
  });

  it("accepts a body just under the configured cap", async () => {
    const hooks = await start({ server: { maxBodyBytes: 4096 } });
    const body = JSON.stringify({ ref: "x".repeat(4000) });
    expect((await hooks.post("/hooks/github", { body, headers: githubHeaders(body, "d-1") })).status).toBe(202);
    const over = JSON.stringify({ ref: "x".repeat(4100) });
    expect((await hooks.post("/hooks/github", { body: over, headers: githubHeaders(over, "d-2") })).status).toBe(413);
  });
});

describe("rate limits", () => {
  it("hold a webhook to its rate with 429 and Retry-After, on the injected clock", async () => {
    let now = 1_000_000;
    const hooks = await start({ server: { requestsPerMinutePerWebhook: 2 }, now: () => now });
    expect((await deliver(hooks, "d-1")).status).toBe(202);
    expect((await deliver(hooks, "d-2")).status).toBe(202);
    const limited = await deliver(hooks, "d-3");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    expect(await limited.text()).toBe("");
    now += 29_000;
    expect((await deliver(hooks, "d-3")).status).toBe(429);
    now += 1_000;
    // Refused, so not remembered: the same delivery is welcome once the rate allows it.
    expect((await deliver(hooks, "d-3")).status).toBe(202);
  });

  it("count every request to a webhook path toward the overall rate, signed or not", async () => {
    const now = 5_000_000;
    const deploy = webhook({ id: "deploy", path: "/hooks/deploy", auth: "bearer" });
    const hooks = await start({ webhooks: [GITHUB, deploy], server: { requestsPerMinute: 3 }, now: () => now });
    expect((await hooks.post("/hooks/deploy", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    expect((await hooks.post("/hooks/deploy", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    expect((await deliver(hooks, "d-1")).status).toBe(202);
    const limited = await deliver(hooks, "d-2");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("20");
    // Unknown paths are not webhooks: they neither count nor get a 429.
    expect((await hooks.post("/elsewhere")).status).toBe(404);
  });
});

describe("listening", () => {
  it("reports an address already in use with a typed error", async () => {
    const hooks = await start();
    const error = await start({ server: { listen: { host: "127.0.0.1", port: hooks.server.address.port } } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "triggers.listen_failed" });
    expect((error as Error).message).toContain(
      `127.0.0.1:${hooks.server.address.port}: another program uses that address (EADDRINUSE)`,
    );
    expect(hooks.server.urls.get("github")).toBe(hooks.url("/hooks/github"));
  });

  it("says what to do for an address this computer does not have: not to stop what uses it", async () => {
    // 192.0.2.1 is set aside for documentation: no host has it.
    const error = await start({ server: { listen: { host: "192.0.2.1", port: 0 } } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "triggers.listen_failed" });
    expect((error as Error).message).toBe(
      "Telecode could not listen for webhooks on 192.0.2.1:0: this computer has no such address (EADDRNOTAVAIL). On the computer running Telecode, set webhook_server.listen to another, such as 127.0.0.1.",
    );
  });
});
