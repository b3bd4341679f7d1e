// A lane: one chat (or terminal) working in one project. Runs in a lane go one at a time, and
// a lane has at most one live session handle. `laneId` is the one way to name a lane as text.

export type Lane = { readonly chatId: number; readonly project: string };

/** "42/app": a lane's name in maps, logs and the decision ledger. */
export function laneId(lane: Lane): string {
  return `${lane.chatId}/${lane.project}`;
}
