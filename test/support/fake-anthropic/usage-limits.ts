// What makes the real CLI report usage limits (rate_limit_event): the API's unified rate-limit
// headers, which it reads only for a subscriber or a Claude gateway token (an unsigned JWT whose
// aud is claude-gateway, given as ANTHROPIC_AUTH_TOKEN with no API key).
import { Buffer } from "node:buffer";

const encode = (o: object): string => Buffer.from(JSON.stringify(o)).toString("base64url");

export const GATEWAY_TOKEN = `${encode({ alg: "none", typ: "JWT" })}.${encode({ aud: "claude-gateway", sub: "t" })}.`;

/** The five-hour window resets at this fixed time (2030-03-17 17:46:40 UTC), so runs stay stable. */
export const RESETS_AT_S = 1_900_000_000;

/** Headers for the five-hour window in `status` ("allowed", "allowed_warning", "rejected") at `utilization` (0–1). */
export const fiveHourHeaders = (status: string, utilization: string): Record<string, string> => ({
  "anthropic-ratelimit-unified-status": status,
  "anthropic-ratelimit-unified-reset": String(RESETS_AT_S),
  "anthropic-ratelimit-unified-representative-claim": "five_hour",
  "anthropic-ratelimit-unified-5h-status": status,
  "anthropic-ratelimit-unified-5h-reset": String(RESETS_AT_S),
  "anthropic-ratelimit-unified-5h-utilization": utilization,
});
