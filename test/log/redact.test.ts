// Secrets never leave the process: known values and token-shaped strings are redacted.
import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/log/index.js";

const TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0";

describe("redactSecrets", () => {
  it("removes bot tokens by shape, also inside Bot API URLs, keeping the public bot id", () => {
    expect(redactSecrets(`GET https://api.telegram.org/bot${TOKEN}/getMe failed`)).toBe(
      "GET https://api.telegram.org/bot123456789:[redacted]/getMe failed",
    );
    expect(redactSecrets(`token=${TOKEN}`)).not.toContain("AAHdq");
  });

  it("removes Anthropic API keys by shape", () => {
    expect(redactSecrets("key sk-ant-api03-abcDEF_123-xyz9 used")).toBe("key sk-ant-[redacted] used");
  });

  it("removes known secrets by value, also in their JSON-escaped spelling", () => {
    const secret = 'pa"ss\\word-long';
    const json = JSON.stringify({ msg: `using ${secret}` });
    expect(json).not.toContain(secret);
    expect(redactSecrets(json, [secret])).toBe(JSON.stringify({ msg: "using [redacted]" }));
    expect(redactSecrets(`plain ${secret} twice ${secret}`, [secret])).toBe("plain [redacted] twice [redacted]");
  });

  it("leaves ordinary text and very short 'secrets' alone", () => {
    expect(redactSecrets("chat 123456789 at 12:30, run ok", ["ok"])).toBe("chat 123456789 at 12:30, run ok");
  });
});
