// A tap no button kind claims: another version's button or data that is not ours.
import { Composer } from "grammy";
import { decodeCallbackData } from "../../callback-data.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { readTap, takeDown, toast } from "./tap.js";

export function unknownButtons(deps: Pick<BridgeServices, "outbox">): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.on("callback_query", (ctx) => {
    const tap = readTap(ctx);
    if (tap === undefined) return;
    const decoded = decodeCallbackData(tap.data);
    if (!decoded.ok && decoded.reason === "version") {
      toast(deps.outbox, tap, "No longer pending");
      takeDown(deps.outbox, tap);
      return;
    }
    toast(deps.outbox, tap, "This button does nothing");
  });
  return buttons;
}
