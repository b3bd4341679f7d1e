// A tap no button kind claims: another version's button or data that is not ours. It is
// refused; its message's buttons go only when its decision is over.
import { Composer } from "grammy";
import { decodeCallbackData } from "../../callback-data.js";
import type { TelecodeContext } from "../context.js";
import { NOTHING } from "../decision-messages.js";
import { readTap, refuseTap, type RefuseDeps } from "./tap.js";

export function unknownButtons(deps: RefuseDeps): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.on("callback_query", (ctx) => {
    const tap = readTap(ctx);
    if (tap === undefined) return;
    const decoded = decodeCallbackData(tap.data);
    refuseTap(deps, tap, !decoded.ok && decoded.reason === "version" ? "No longer pending" : NOTHING);
  });
  return buttons;
}
