// Behind a proxy (a company network, or a country where Telegram is reached only through one):
// Telecode's own requests go through the proxy the environment names, as Claude Code's do. The
// Bot API here has a name only the proxy can reach.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makePng } from "../media/samples.js";
import { reply } from "../support/fake-anthropic/index.js";
import { startHttpProxy, type TestProxy } from "../support/proxies.js";
import { startTlsFront } from "../support/tls-front.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";
import { useWorld } from "./helpers.js";

let rig: Rig;
let proxy: TestProxy;
beforeAll(async () => {
  // The proxy must exist before the app starts; the fake Bot API's port is known only once the rig
  // has started it, so the proxy learns it through `hosts`, read at each request.
  const hosts: Record<string, number> = {};
  proxy = await startHttpProxy(hosts);
  rig = await startRig({
    apiRoot: (fake) => {
      hosts["telegram.test"] = Number(new URL(fake).port);
      return `http://telegram.test:${new URL(fake).port}`;
    },
    env: { HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1,localhost" },
  });
});
afterAll(async () => {
  await rig?.dispose();
  await proxy?.close();
});

describe("behind an HTTP proxy", () => {
  it("reads messages, fetches a photo and answers, every request through the proxy", async () => {
    const chat = rig.user(1001);
    rig.script("[proxied]", [reply.text("Seen through the proxy.")]);
    rig.tg.sendPhoto(chat, makePng(40, 30), { caption: "what is this? [proxied]" });
    await rig.botMessage(chat, isAnswer("Seen through the proxy."));
    const methods = new Set(proxy.seen.map((line) => /\/(?:file\/)?bot[^/]+\/([A-Za-z]+)/.exec(line)?.[1] ?? line));
    for (const method of ["getMe", "getUpdates", "sendMessage", "getFile"]) expect(methods).toContain(method);
    expect(proxy.seen.some((line) => line.includes("/file/bot"))).toBe(true);
  });
});

describe("a proxy, or a certificate, in the way", () => {
  const newWorld = useWorld();

  it("that lets Telegram through is named as `telecode` starts", async () => {
    const world = await newWorld();
    const port = Number(new URL(world.tg.apiRoot).port);
    const through = await startHttpProxy({ "telegram.test": port });
    try {
      await world.writeConfig({ apiRoot: `http://telegram.test:${port}` });
      const serve = world.spawnTelecode(["--config", world.configPath], {
        ...world.ws.env,
        HTTP_PROXY: through.url,
        NO_PROXY: "127.0.0.1,localhost",
      });
      await serve.started;
      expect(serve.stderr()).toMatch(
        new RegExp(
          `running as @\\w+, reaching Telegram through ${through.url} \\(HTTP_PROXY\\)\\. Press Ctrl\\+C to stop\\.`,
        ),
      );
      serve.child.kill("SIGTERM");
      expect((await serve.exited).code).toBe(0);
    } finally {
      await through.close();
    }
  });

  it("that refuses Telegram is said at start as an answer that is not the Bot API's, and tried again", async () => {
    const refusing = await startHttpProxy({}, { refuseConnect: true });
    try {
      const world = await newWorld();
      await world.writeConfig({ apiRoot: "https://api.telegram.org" });
      const serve = world.spawnTelecode(["--config", world.configPath], { ...world.ws.env, HTTPS_PROXY: refusing.url });
      await vi.waitFor(() => expect(serve.stderr()).toMatch(/retrying in 2 s/), { timeout: 30_000, interval: 100 });
      expect(serve.stderr()).toContain(
        "telecode: can't reach the Bot API at https://api.telegram.org (an answer that is not the Bot API's); retrying in 1 s.",
      );
      serve.child.kill("SIGTERM");
      expect((await serve.exited).code).toBe(0);
      expect(refusing.seen[0]).toBe("CONNECT api.telegram.org:443");
    } finally {
      await refusing.close();
    }
  });

  it("with a certificate this computer does not trust is said at start, with what to do, and tried again", async () => {
    const world = await newWorld();
    const front = await startTlsFront(Number(new URL(world.tg.apiRoot).port));
    try {
      await world.writeConfig({ apiRoot: front.root });
      const serve = world.spawnTelecode(["--config", world.configPath]);
      await vi.waitFor(() => expect(serve.stderr()).toMatch(/retrying in 2 s/), { timeout: 30_000, interval: 100 });
      const said = serve.stderr().split("\n");
      expect(said.filter((l) => l.includes("NODE_EXTRA_CA_CERTS"))).toEqual([
        "telecode: the certificate on the way is not one this computer trusts, as when a company proxy or firewall inspects TLS: give Node that company's CA certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment Telecode starts in (Claude Code needs it too).",
      ]);
      expect(said[0]).toMatch(
        /^telecode: can't reach the Bot API at https:\/\/localhost:\d+ \(DEPTH_ZERO_SELF_SIGNED_CERT\); retrying in 1 s/,
      );
      serve.child.kill("SIGTERM");
      expect((await serve.exited).code).toBe(0);
    } finally {
      await front.close();
    }
  });

  it("stops the start, naming the variable and what to do, without the proxy's password", async () => {
    const world = await newWorld();
    await world.writeConfig({ apiRoot: "https://api.telegram.org" });
    const serve = await world.telecode(["--config", world.configPath], {
      ...world.ws.env,
      HTTPS_PROXY: "ftp://me:s3cret@corp:21",
    });
    expect(serve.code).toBe(78);
    expect(serve.err).toContain(
      "telecode: could not start: HTTPS_PROXY names a ftp: proxy: fix it or unset it (an http://, https:// or socks5:// URL, e.g. http://proxy:3128)",
    );
    expect(serve.err).not.toContain("s3cret");
  });
});
