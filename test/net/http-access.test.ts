// Telecode's own requests through the proxy the environment names: grammY's Bot API calls and
// fetch (file downloads, transcription, doctor, init), through an HTTP proxy (absolute-form for
// http, CONNECT for https) and a SOCKS5 one, to a name only the proxy can reach.
import { createServer, get, type Agent, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Bot } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { httpAccess } from "../../src/net/index.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";
import { startHttpProxy, startSocksProxy, type TestProxy } from "../support/proxies.js";

let tg: FakeBotApi;
let proxy: TestProxy | undefined;
/** The fake Bot API under a name nothing resolves: only a proxy reaches it. */
let apiRoot: string;

beforeEach(async () => {
  tg = await startFakeBotApi();
  apiRoot = `http://telegram.test:${new URL(tg.apiRoot).port}`;
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await tg.close();
});

const hosts = () => ({ "telegram.test": Number(new URL(tg.apiRoot).port) });

/** A bot whose requests go out as the bridge's do. */
function botThrough(env: Record<string, string>): Bot {
  const access = httpAccess(env);
  return new Bot(tg.token, {
    client: { apiRoot, baseFetchConfig: { agent: (url: { href: string }) => access.agentFor(new URL(url.href)) } },
  });
}

describe("through an HTTP proxy", () => {
  it("grammY's calls and fetch reach the Bot API, and the proxy saw them", async () => {
    proxy = await startHttpProxy(hosts());
    const env = { HTTP_PROXY: proxy.url };
    const me = await botThrough(env).api.getMe();
    expect(me.is_bot).toBe(true);
    const answer = await httpAccess(env).fetch(`${apiRoot}/bot${tg.token}/getMe`, { method: "POST" });
    expect(((await answer.json()) as { ok: boolean }).ok).toBe(true);
    expect(proxy.seen).toEqual([`POST ${apiRoot}/bot${tg.token}/getMe`, `POST ${apiRoot}/bot${tg.token}/getMe`]);
    expect(httpAccess(env).routeOf(new URL(apiRoot))).toBe(`through ${proxy.url} (HTTP_PROXY)`);
  });

  it("asks the proxy for a tunnel to an https Bot API (CONNECT); its refusal is the answer", async () => {
    proxy = await startHttpProxy({}, { refuseConnect: true });
    const access = httpAccess({ HTTPS_PROXY: proxy.url });
    const answer = await access.fetch("https://api.telegram.org/bot123:abc/getMe");
    expect(answer.status).toBe(403);
    expect(proxy.seen).toEqual(["CONNECT api.telegram.org:443"]);
  });

  it("fetch sends a form's parts and streams the answer, through the proxy", async () => {
    const echo = await startEcho();
    proxy = await startHttpProxy({ "speech.test": echo.port });
    const form = new FormData();
    form.append("model", "whisper-1");
    form.append("file", new Blob([new Uint8Array(70_000).fill(7)], { type: "audio/ogg" }), "voice.ogg");
    const answer = await httpAccess({ HTTP_PROXY: proxy.url }).fetch(`http://speech.test:${echo.port}/v1/audio`, {
      method: "POST",
      headers: { authorization: "Bearer k" },
      body: form,
    });
    const got = (await answer.json()) as { method: string; type: string; auth: string; length: number; bytes: number };
    expect(got.method).toBe("POST");
    expect(got.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(got.auth).toBe("Bearer k");
    expect(got.bytes).toBeGreaterThan(70_000);
    // Sent with its length, not in chunks, which some proxies refuse.
    expect(got.length).toBe(got.bytes);
    await echo.close();
  });

  it("a signal ends a fetch through the proxy", async () => {
    proxy = await startHttpProxy(hosts());
    tg.injectFault("getMe", { kind: "silent" });
    const controller = new AbortController();
    const call = httpAccess({ HTTP_PROXY: proxy.url })
      .fetch(`${apiRoot}/bot${tg.token}/getMe`, { method: "POST", signal: controller.signal })
      .catch((error: unknown) => error);
    setTimeout(() => controller.abort(), 100);
    expect(((await call) as Error).name).toBe("AbortError");
  });
});

describe("through a SOCKS5 proxy", () => {
  it("grammY's calls and fetch reach the Bot API by name, and the proxy saw them", async () => {
    proxy = await startSocksProxy(hosts());
    const env = { ALL_PROXY: proxy.url };
    expect((await botThrough(env).api.getMe()).is_bot).toBe(true);
    const answer = await httpAccess(env).fetch(`${apiRoot}/bot${tg.token}/getMe`, { method: "POST" });
    expect(answer.status).toBe(200);
    expect(proxy.seen).toContain(`telegram.test:${new URL(tg.apiRoot).port}`);
  });
});

describe("without a proxy", () => {
  it("goes directly, by Node's own fetch and keep-alive agents", async () => {
    const access = httpAccess({});
    expect(access.routeOf(new URL(tg.apiRoot))).toBeUndefined();
    const answer = await access.fetch(`${tg.apiRoot}/bot${tg.token}/getMe`, { method: "POST" });
    expect(answer.status).toBe(200);
    expect(access.agentFor(new URL(tg.apiRoot))).toBe(access.agentFor(new URL(`${tg.apiRoot}/other`)));
  });
});

/** A server that answers with what it received: method, content type, authorization, body size. */
async function startEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => {
      const body = JSON.stringify({
        method: req.method,
        type: req.headers["content-type"],
        auth: req.headers["authorization"],
        length: Number(req.headers["content-length"]),
        bytes,
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("the connections kept for reuse", () => {
  it("are reused, until forgotten (after a sleep): the next request opens a new one", async () => {
    let connections = 0;
    const server = createServer((_request, response) => response.end("ok"));
    server.on("connection", () => void (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const access = httpAccess({});
    const ask = (agent: Agent): Promise<string> =>
      new Promise((resolve, reject) => {
        get(url, { agent }, (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () => resolve(body));
        }).on("error", reject);
      });
    expect(await ask(access.agentFor(url))).toBe("ok");
    expect(await ask(access.agentFor(url))).toBe("ok");
    expect(connections).toBe(1);
    access.forgetConnections();
    expect(await ask(access.agentFor(url))).toBe("ok");
    expect(connections).toBe(2);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
