// Which proxy a request takes, from the environment as curl and Claude Code read it.
import { describe, expect, it } from "vitest";
import { proxyFor, proxyPasswords, ProxySettingError, shownProxy } from "../../src/net/index.js";

const TELEGRAM = new URL("https://api.telegram.org/bot123:abc/getMe");
const LAN = new URL("http://bot-api.lan:8081/bot123:abc/getMe");

const via = (target: URL, env: Record<string, string>): string => {
  const choice = proxyFor(target, env);
  return choice.kind === "direct" ? "direct" : `${choice.url.href} (${choice.variable})`;
};

describe("proxyFor", () => {
  it("takes HTTPS_PROXY for https, HTTP_PROXY for http, ALL_PROXY for either, lower-case names first", () => {
    const env = { HTTPS_PROXY: "http://corp:3128", HTTP_PROXY: "http://plain:8080" };
    expect(via(TELEGRAM, env)).toBe("http://corp:3128/ (HTTPS_PROXY)");
    expect(via(LAN, env)).toBe("http://plain:8080/ (HTTP_PROXY)");
    expect(via(TELEGRAM, { https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:2" })).toBe(
      "http://lower:1/ (https_proxy)",
    );
    expect(via(TELEGRAM, { ALL_PROXY: "socks5h://tunnel:1080" })).toBe("socks5h://tunnel:1080 (ALL_PROXY)");
    expect(via(TELEGRAM, { HTTP_PROXY: "http://plain:8080" })).toBe("direct");
    expect(via(TELEGRAM, {})).toBe("direct");
  });

  it("reads a proxy named without a scheme as an HTTP proxy, as curl does", () => {
    expect(via(TELEGRAM, { HTTPS_PROXY: "corp:3128" })).toBe("http://corp:3128/ (HTTPS_PROXY)");
  });

  it("goes directly to NO_PROXY's hosts, their subdomains and ports, and to this machine", () => {
    const proxy = { HTTPS_PROXY: "http://corp:3128", HTTP_PROXY: "http://corp:3128" };
    expect(via(TELEGRAM, { ...proxy, NO_PROXY: "telegram.org" })).toBe("direct");
    expect(via(TELEGRAM, { ...proxy, NO_PROXY: ".telegram.org" })).toBe("direct");
    expect(via(TELEGRAM, { ...proxy, no_proxy: "localhost, *.telegram.org" })).toBe("direct");
    expect(via(TELEGRAM, { ...proxy, NO_PROXY: "api.telegram.org:443" })).toBe("direct");
    expect(via(TELEGRAM, { ...proxy, NO_PROXY: "api.telegram.org:8443" })).not.toBe("direct");
    expect(via(TELEGRAM, { ...proxy, NO_PROXY: "legram.org" })).not.toBe("direct");
    expect(via(LAN, { ...proxy, NO_PROXY: "*" })).toBe("direct");
    expect(via(new URL("http://[fd00::5]:8081/x"), { ...proxy, NO_PROXY: "[fd00::5]:8081" })).toBe("direct");
    for (const local of ["http://127.0.0.1:8081/", "http://localhost:8081/", "http://[::1]:8081/"])
      expect(via(new URL(local), proxy)).toBe("direct");
  });

  it("refuses a variable that is no proxy URL, naming it and what to do", () => {
    expect(() => proxyFor(TELEGRAM, { HTTPS_PROXY: "http://" })).toThrow(ProxySettingError);
    expect(() => proxyFor(TELEGRAM, { HTTPS_PROXY: "ftp://corp:21" })).toThrow(
      "HTTPS_PROXY names a ftp: proxy: fix it or unset it (an http://, https:// or socks5:// URL, e.g. http://proxy:3128)",
    );
    // Not asked for a target it does not apply to.
    expect(via(TELEGRAM, { HTTP_PROXY: "ftp://corp:21" })).toBe("direct");
  });

  it("shows a proxy without its user and password", () => {
    expect(shownProxy(new URL("http://me:secret@corp:3128"))).toBe("http://corp:3128");
  });
});

describe("proxyPasswords", () => {
  it("finds every proxy variable's password, as written and decoded, for the log to hide", () => {
    const env = {
      HTTPS_PROXY: "http://me:s%40cret@corp:3128",
      all_proxy: "socks5h://tunnel:also-secret@127.0.0.1:1080",
      HTTP_PROXY: "plain:8080",
      NO_PROXY: "x:y@z",
    };
    expect(proxyPasswords(env).sort()).toEqual(["also-secret", "s%40cret", "s@cret"]);
    expect(proxyPasswords({ HTTPS_PROXY: "http://" })).toEqual([]);
  });
});
