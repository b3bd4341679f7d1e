// Behind a proxy (a company network, or a country where Telegram is reached only through one):
// Telecode's own requests go through the proxy the environment names, as Claude Code's do. The
// Bot API here has a name only the proxy can reach.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePng } from "../media/samples.js";
import { reply } from "../support/fake-anthropic/index.js";
import { startHttpProxy, type TestProxy } from "../support/proxies.js";
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

describe("a proxy variable that is no proxy URL", () => {
  const newWorld = useWorld();

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
