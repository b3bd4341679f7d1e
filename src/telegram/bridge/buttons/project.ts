// The project buttons /project shows: a tap switches the chat's project.
import type { Composer } from "grammy";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { pick, pickKeyboard } from "./pick.js";
import { buttonComposer } from "./tap.js";

const PROJECT_TRIGGER = buttonTrigger("p\\d{1,3}");

/** The project buttons for a chat whose project is `current`. */
export function projectKeyboard(
  callbacks: CallbackRegistry<BridgeAction>,
  chatId: number,
  names: readonly string[],
  current: string | undefined,
) {
  const token = callbacks.register({ kind: "project", names }, chatId);
  return pickKeyboard(names, current, (i) => callbacks.data(token, `p${i}`));
}

export function projectButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers" | "store">,
): Composer<TelecodeContext> {
  return buttonComposer(deps, PROJECT_TRIGGER, "project", (tap, action) => {
    const name = action.names[Number(tap.choice?.slice(1))];
    pick(deps, tap, "Project", name, (chatId, project) => deps.store.chats.update(chatId, { project }));
  });
}
