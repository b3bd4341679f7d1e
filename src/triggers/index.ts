// The triggers folder's public surface: the webhook server, its config shapes and checks
// (listen addresses, prompt templates, secrets), and the delivery-id persistence port.
export { TriggerError, type TriggerErrorCode } from "./errors.js";
export {
  DEFAULT_LISTEN,
  formatListenAddress,
  isLoopbackHost,
  parseListenAddress,
  webhookUrl,
  type ListenAddress,
} from "./listen-address.js";
export {
  MAX_FIELD_CHARS,
  MAX_PAYLOAD_CHARS,
  parsePromptTemplate,
  renderWebhookPrompt,
  webhookSummary,
  type PromptTemplate,
  type TemplateParse,
} from "./prompt-template.js";
export { DELIVERY_IDS_KEPT } from "./replay-guard.js";
export { findMissingSecrets, readWebhookSecrets, type MissingSecret } from "./webhook-auth.js";
export { startWebhookServer, type StartWebhookServerOptions, type WebhookServer } from "./webhook-server.js";
export {
  WEBHOOK_AUTHS,
  type DeliveryIdStore,
  type RunOverrides,
  type TriggerHandler,
  type WebhookAuth,
  type WebhookConfig,
  type WebhookServerConfig,
  type WebhookTrigger,
} from "./webhook-types.js";
