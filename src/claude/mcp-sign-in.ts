// Signing in to an MCP server through a session's live Claude Code process. Claude Code runs the
// OAuth flow: it registers, makes the sign-in page's address and waits on a port of its own on
// localhost for the browser to come back. Telecode passes the page on and, when the browser that
// signed in could not reach that port (a phone's), the address it was sent to; then has Claude
// Code connect the server again, which it does not do by itself after such an address.
import type { McpSignInEnd, McpSignInStart } from "../domain/index.js";
import { inItsOwnWords, type ControlChannel } from "./control-channel.js";
import { ClaudeError } from "./errors.js";

/** Claude Code checks the server and registers with its sign-in before it answers. */
const SIGN_IN_TIMEOUT_MS = 60_000;

/** Begins a sign-in to `server`; throws a ClaudeError with Claude Code's reason when it will not. */
export async function beginMcpSignIn(channel: ControlChannel, server: string): Promise<McpSignInStart> {
  const reply = await inItsOwnWords(
    channel.request({ subtype: "mcp_authenticate", serverName: server }, SIGN_IN_TIMEOUT_MS),
  );
  const url = reply["authUrl"];
  if (typeof url === "string" && url !== "")
    return {
      kind: "open_link",
      url,
      callbackPrefix: reply["callbackExpected"] === true ? callbackPrefixOf(url) : undefined,
    };
  if (reply["requiresUserAction"] === false) return { kind: "signed_in" };
  throw new ClaudeError("claude.control_failed", `Claude Code gave no page to sign in to ${server} on.`);
}

/**
 * Finishes a sign-in with the address the sign-in page sent the browser to, and connects the
 * server again. Throws (Claude Code's reason) when the address is not taken: another sign-in's,
 * or none waits any longer (Claude Code restarted since).
 */
export async function finishMcpSignIn(
  channel: ControlChannel,
  server: string,
  callbackUrl: string,
): Promise<McpSignInEnd> {
  await inItsOwnWords(
    channel.request({ subtype: "mcp_oauth_callback_url", serverName: server, callbackUrl }, SIGN_IN_TIMEOUT_MS),
  );
  try {
    await inItsOwnWords(channel.request({ subtype: "mcp_reconnect", serverName: server }, SIGN_IN_TIMEOUT_MS));
    return { connected: true };
  } catch (error) {
    return { connected: false, why: error instanceof Error ? error.message : String(error) };
  }
}

/** "http://localhost:53781/callback": the sign-in page's `redirect_uri` without its query. */
function callbackPrefixOf(authUrl: string): string | undefined {
  try {
    const redirect = new URL(new URL(authUrl).searchParams.get("redirect_uri") ?? "");
    return `${redirect.origin}${redirect.pathname}`;
  } catch {
    return undefined;
  }
}
