// telegram.group_approvals = "requester": in a group, a run's approvals, plans and questions are
// answered only by the person who asked for the run; a run nobody typed (a schedule's, a
// webhook's) by anyone allowed, as with "anyone". Who asked is read from the run's record, so
// it holds after a restart too.
import type { Requester } from "../../sessions/index.js";
import type { BridgeServices } from "./services.js";

export type AnswerersDeps = Pick<BridgeServices, "config" | "store" | "logger"> & {
  control: Pick<BridgeServices["control"], "inGroup">;
};

/** The one person who may answer the decision, when only one may; undefined: any allowed user. */
export function soleAnswerer(deps: AnswerersDeps, chatId: number, decisionId: string): Requester | undefined {
  if (deps.config().telegram.groupApprovals !== "requester" || !deps.control.inGroup(chatId)) return undefined;
  try {
    const runId = deps.store.decisions.get(decisionId)?.runId;
    return runId === undefined ? undefined : (deps.store.runs.get(runId)?.input?.requester ?? undefined);
  } catch (error) {
    // A record that cannot be read leaves the decision to any allowed user, as "anyone" does.
    deps.logger.event("telegram.requester_lookup_failed", { err: error, decisionId }, "error");
    return undefined;
  }
}

/** Whether `userId` may answer the decision. */
export function mayAnswer(deps: AnswerersDeps, chatId: number, decisionId: string, userId: number): boolean {
  const sole = soleAnswerer(deps, chatId, decisionId);
  return sole === undefined || sole.userId === userId;
}

export { onlyTheirs } from "./prompt-html.js";
