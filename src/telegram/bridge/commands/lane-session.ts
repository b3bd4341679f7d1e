// The chat's session in a project as /status and /usage name it: its id once Claude Code has
// named one, else whether a running task is starting one (a first message's run has no session
// in the store until then), else none yet.
import type { BridgeServices } from "../services.js";

export type LaneSession = { sessionId: string } | "starting" | "none";

export function laneSession(
  chatId: number,
  project: string | undefined,
  { store, sessions }: Pick<BridgeServices, "store" | "sessions">,
): LaneSession {
  if (project === undefined) return "none";
  const working = sessions
    .status(chatId)
    .find((entry) => entry.lane.project === project && entry.runningRunId !== undefined);
  const sessionId = store.sessions.current(chatId, project)?.sessionId ?? working?.sessionId;
  if (sessionId !== undefined) return { sessionId };
  return working === undefined ? "none" : "starting";
}

/** The session in words: `known` says what to show of one Claude Code has named. */
export function sessionWords(session: LaneSession, known: (sessionId: string) => string): string {
  if (session === "starting") return "starting with the running task";
  if (session === "none") return "none yet (the next message starts one)";
  return known(session.sessionId);
}
