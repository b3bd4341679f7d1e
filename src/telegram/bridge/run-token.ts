// Buttons that name a run (Cancel, Continue, Retry) must work after a restart, when no token map
// survives, so their token is the run id itself: a random UUID is 16 bytes, 22 base64url
// characters, as unguessable as any token. The store (or the live run) says what it stands for.
import { encodeCallbackData } from "../callback-data.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The callback data of a button for run `runId`; undefined when the id is not a UUID (nothing to encode). */
export function runButtonData(runId: string, choice: string): string | undefined {
  if (!UUID.test(runId)) return undefined;
  const token = Buffer.from(runId.replaceAll("-", ""), "hex").toString("base64url");
  return encodeCallbackData({ token, choice });
}

/** The run id a run button's token names. */
export function runIdFromToken(token: string): string {
  const hex = Buffer.from(token, "base64url").toString("hex").padEnd(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
