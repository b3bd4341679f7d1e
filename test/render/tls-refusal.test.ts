// A TLS failure on the way to Telegram, read by what usually causes it.
import { describe, expect, it } from "vitest";
import { tlsRefusalWords } from "../../src/render/index.js";

const failure = (code: string) =>
  Object.assign(new Error("fetch failed"), { cause: Object.assign(new Error(code), { code }) });

describe("tlsRefusalWords", () => {
  it("names NODE_EXTRA_CA_CERTS for a certificate this computer does not trust, however deep the code is", () => {
    const words = tlsRefusalWords(failure("SELF_SIGNED_CERT_IN_CHAIN"));
    expect(words).toContain("as when a company proxy or firewall inspects TLS");
    expect(words).toContain("NODE_EXTRA_CA_CERTS=/path/to/ca.pem");
    // grammY's HttpError keeps the failure in `error`.
    expect(tlsRefusalWords({ error: { code: "UNABLE_TO_GET_ISSUER_CERT_LOCALLY" } })).toBe(words);
    expect(tlsRefusalWords({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" })).toBe(words);
  });

  it("sends an expired or not yet valid certificate to the clock, and another name to api_root", () => {
    expect(tlsRefusalWords(failure("CERT_HAS_EXPIRED"))).toMatch(
      /expired by this computer's clock: check its date and time/,
    );
    expect(tlsRefusalWords(failure("CERT_NOT_YET_VALID"))).toMatch(/not yet valid by this computer's clock/);
    expect(tlsRefusalWords(failure("ERR_TLS_CERT_ALTNAME_INVALID"))).toMatch(
      /for another name: check telegram.api_root/,
    );
  });

  it("says nothing of any other failure", () => {
    expect(tlsRefusalWords(failure("ECONNREFUSED"))).toBeUndefined();
    expect(tlsRefusalWords(new Error("boom"))).toBeUndefined();
    expect(tlsRefusalWords(undefined)).toBeUndefined();
  });
});
