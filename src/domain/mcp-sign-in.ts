// A sign-in to an MCP server, as the person goes through it: Claude Code either finds one it
// can use (the server connects) or gives the page to sign in on. That page ends by sending the
// browser to an address on the computer Claude Code runs on, where Claude Code waits for it.

/** How a sign-in to an MCP server goes on once Claude Code began it. */
export type McpSignInStart =
  /** The server connected with a sign-in Claude Code already had: nothing to do. */
  | { kind: "signed_in" }
  | {
      kind: "open_link";
      /** The sign-in page. */
      url: string;
      /**
       * Where the page sends the browser afterwards, without its query ("http://localhost:53781/callback"):
       * a browser elsewhere (a phone) cannot open it, so the person passes that address on.
       */
      callbackPrefix: string | undefined;
    };

/** How a sign-in ended: the server connected, or did not (Claude Code's reason). */
export type McpSignInEnd = { connected: true } | { connected: false; why: string };

/** MCP servers as a sentence names them ("server ops", "servers a, b"), and the pronoun that follows. */
export function mcpServersNamed(names: readonly string[]): { who: string; its: string } {
  return names.length === 1
    ? { who: `server ${names[0]}`, its: "its" }
    : { who: `servers ${names.join(", ")}`, its: "their" };
}
