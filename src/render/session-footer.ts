// The answer footer's session mark, "session 1a2b3c4d — reply to continue": written under
// every final answer and read back from a message a person replies to, so both live here.

const MARK = / · session ([0-9a-f-]{8}) — reply to continue/;

/** " · session 1a2b3c4d — reply to continue" for the footer (plain text; escape it for HTML). */
export function formatSessionMark(sessionId: string): string {
  return ` · session ${sessionId.slice(0, 8)} — reply to continue`;
}

/** The session id prefix (8 characters) a message's footer names, if it has one. */
export function parseSessionMark(text: string): string | undefined {
  return MARK.exec(text)?.[1];
}
