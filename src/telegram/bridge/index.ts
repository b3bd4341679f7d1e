// The Telegram bridge's public surface: build it, start it, stop it; plus the pieces the
// composition root and tests need (command list, chat switches, texts people see).
export { BridgeError, createTelegramBridge } from "./bridge.js";
export type { TelegramBridge } from "./bridge.js";
export type { BridgePorts, TelegramBridgeOptions } from "./bridge-types.js";
export { chatDecisionSettings } from "./chat-settings.js";
export { COMMANDS } from "./command-text.js";
export { NOT_AUTHORISED_TEXT } from "./access.js";
export { RESUME_PROMPT } from "./recovery.js";
export { INTERRUPTED_NOTE } from "./resume-button.js";
