// What a TLS failure on the way to Telegram means, in words for the person running Telecode:
// Node's codes for a certificate it will not accept, read by what usually causes each. Pure.

/** A company proxy or firewall that inspects TLS: the usual reason a certificate is not trusted. */
const UNTRUSTED =
  "the certificate on the way is not one this computer trusts, as when a company proxy or firewall inspects TLS: give Node that company's CA certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment Telecode starts in (Claude Code needs it too)";

const WORDS: Readonly<Record<string, string>> = {
  SELF_SIGNED_CERT_IN_CHAIN: UNTRUSTED,
  DEPTH_ZERO_SELF_SIGNED_CERT: UNTRUSTED,
  UNABLE_TO_GET_ISSUER_CERT: UNTRUSTED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNTRUSTED,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNTRUSTED,
  CERT_HAS_EXPIRED:
    "the certificate on the way reads as expired by this computer's clock: check its date and time (network time: `sudo timedatectl set-ntp true`; in WSL, `sudo hwclock -s`)",
  CERT_NOT_YET_VALID:
    "the certificate on the way reads as not yet valid by this computer's clock: check its date and time (network time: `sudo timedatectl set-ntp true`; in WSL, `sudo hwclock -s`)",
  ERR_TLS_CERT_ALTNAME_INVALID:
    "the certificate on the way is for another name: check telegram.api_root, or what sits between this computer and Telegram",
};

/** What to do about the TLS failure `error` (or its cause) names; undefined for any other failure. */
export function tlsRefusalWords(error: unknown): string | undefined {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 4; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && WORDS[code] !== undefined) return WORDS[code];
    at = (at as { cause?: unknown }).cause ?? (at as { error?: unknown }).error;
  }
  return undefined;
}
