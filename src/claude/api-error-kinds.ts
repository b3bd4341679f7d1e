// Claude Code's typed kinds of an API error (`api_error` on a result or on its synthetic
// assistant line), grouped by what a person does next as the CLI's own recovery table groups
// them (2.1.332), with the words for the kinds whose message is written for a developer or the
// model. The CLI adds kinds over time: one not listed here reads as no kind. Text only.
import { HINT_COMMANDS, FAILS_UNTIL_FIXED } from "../domain/index.js";

/** What a person does about a failure of this kind. */
export type NextStep = "try_again" | "fix_setup" | "switch_model" | "make_room" | "edit_message" | "wait" | "blocked";

const NEXT_STEP: Readonly<Record<string, NextStep>> = {
  max_output_tokens: "try_again",
  no_response: "try_again",
  connection_failed: "try_again",
  stream_idle_timeout: "try_again",
  computer_slept: "try_again",
  empty_completion: "try_again",
  malformed_tool_use_exhausted: "try_again",
  consent_unanswered: "try_again",
  media_removed: "try_again",
  pdf_too_large: "try_again",
  pdf_password_protected: "try_again",
  claude_code_version_too_old: "fix_setup",
  effort_requires_thinking: "fix_setup",
  advisor_incompatible: "fix_setup",
  stored_login_refused: "fix_setup",
  named_profile_unusable: "fix_setup",
  oauth_refresh_store_refused: "fix_setup",
  tls_untrusted_ca: "fix_setup",
  tls_cert_signature_failure: "fix_setup",
  gateway_content_type: "fix_setup",
  provider_credentials: "fix_setup",
  gateway_signin_required: "fix_setup",
  gateway_session_expired: "fix_setup",
  api_key_auth_disabled: "fix_setup",
  org_disabled_credential: "fix_setup",
  invalid_credential_header: "fix_setup",
  model_substitution_disabled: "fix_setup",
  field_not_granted: "fix_setup",
  network_edge_blocked: "fix_setup",
  model_requires_usage_credits: "switch_model",
  long_context_credits_required: "switch_model",
  no_allowed_fallback: "switch_model",
  autocompact_thrashing: "make_room",
  tool_history_mismatch: "edit_message",
  message_over_context_limit: "edit_message",
  usage_limit_reached: "wait",
  unattended_start_limit: "wait",
  unattended_start_unconfirmed: "wait",
  hook_denied: "blocked",
  dlp_request_denied: "blocked",
  safety_monitor_blocked: "blocked",
};

/** Every kind Telecode knows (Claude Code 2.1.332's). */
export const KNOWN_KINDS: readonly string[] = Object.keys(NEXT_STEP);

/** What a person does next about an API error of `kind`; undefined for none or one not known. */
export function nextStepOf(kind: string | undefined): NextStep | undefined {
  return kind === undefined ? undefined : NEXT_STEP[kind];
}

/**
 * Try-again kinds the same message would meet again: a file the person sent goes again with it,
 * an answer too long is as long again, and a confirmation nobody can give from here stays unanswered.
 */
const SAME_AGAIN = new Set([
  "media_removed",
  "pdf_too_large",
  "pdf_password_protected",
  "max_output_tokens",
  "consent_unanswered",
]);

/** Whether sending the same message again may pass. */
export function kindPasses(kind: string): boolean {
  return NEXT_STEP[kind] === "try_again" && !SAME_AGAIN.has(kind);
}

/** What to do about a failure a later try may pass: Claude Code has retried already. */
export const RETRIED = "Send the message again in a minute; Claude Code already retried.";

const { freshSession: FRESH_SESSION, otherModel: OTHER_MODEL, otherEffort: OTHER_EFFORT } = HINT_COMMANDS;

/**
 * What happened, for the kinds whose message says it for a developer ("API Error: 400 due to
 * tool use concurrency issues."); the others keep the CLI's words.
 */
const WHAT: Readonly<Record<string, string>> = {
  tool_history_mismatch: "The API refused this session's history: a tool call in it has no result.",
  autocompact_thrashing:
    "The session filled the model's context again right after each compaction, so Claude Code stopped.",
  // The CLI says "Your computer went to sleep…" (or "Connection to the API was lost") to whoever
  // sits at it; the person reads it on a phone, and Claude Code did not try again.
  computer_slept:
    "The computer running Telecode slept while Claude Code waited for the API's answer, so the run stopped.",
};

/** What to do, by kind: a person's next step, where the CLI's advice is for the model or a developer. */
const KIND_HINT: Readonly<Record<string, string>> = {
  max_output_tokens: "The answer was longer than the model writes at once: ask for a shorter one, or for it in parts.",
  consent_unanswered: `The model now runs on usage credits and nobody confirmed that here: choose ${OTHER_MODEL}, or allow usage credits for your Claude account; ${FAILS_UNTIL_FIXED} with this model.`,
  effort_requires_thinking: `This model refuses that effort without thinking: choose ${OTHER_EFFORT}; ${FAILS_UNTIL_FIXED}.`,
  pdf_too_large: "Send a shorter PDF, or only the pages that matter; Claude Code leaves this one out from now on.",
  pdf_password_protected: "Send a copy without the password; Claude Code leaves this one out from now on.",
  media_removed:
    "Claude Code leaves it out from now on: send it again in another format or smaller, or go on without it.",
  claude_code_version_too_old: `On the computer running Telecode, update Claude Code (\`npm i -g @anthropic-ai/claude-code@latest\`, then \`telecode doctor\`), or choose ${OTHER_MODEL}; ${FAILS_UNTIL_FIXED}.`,
  tool_history_mismatch: `Every message in this session fails the same way: ${FRESH_SESSION}.`,
  message_over_context_limit: "Send a shorter message, or send the text as a file for Claude to read in parts.",
  autocompact_thrashing: `Something in this session is too large for the model's context: ${FRESH_SESSION}.`,
  computer_slept: "Send the message again to go on from where it stopped.",
};

/**
 * What to do, by kind, when the CLI gives no advice of its own (where it does, as for a gateway
 * it could not reach, its advice is the more exact).
 */
const KIND_FALLBACK_HINT: Readonly<Record<string, string>> = {
  // Telegram reached Telecode, so the computer is online: what blocks is on the way to the API.
  connection_failed:
    "Claude Code already retried: check the connection from the computer running Telecode to the API (a proxy, a firewall, or the API itself down), then send the message again.",
};

/** What to do, by next step, for a kind with no words of its own (the CLI's advice, when it gives some, comes first). */
const STEP_HINT: Readonly<Record<NextStep, string>> = {
  try_again: RETRIED,
  fix_setup: `On the computer running Telecode, fix Claude Code's setup as the message says (\`telecode doctor\` checks it); ${FAILS_UNTIL_FIXED}.`,
  switch_model: `Choose ${OTHER_MODEL}, or allow usage credits for your Claude account; ${FAILS_UNTIL_FIXED} with this model.`,
  make_room: `Something in this session is too large for the model's context: ${FRESH_SESSION}.`,
  edit_message: "Send the request another way: the same message fails the same way.",
  wait: "Wait for the limit to reset before sending more.",
  blocked: "The same request is refused again: ask for something else, or put it another way.",
};

/** Telecode's words for a kind: what happened and what to do, where its own replace the CLI's. */
export type KindWords = {
  /** What happened, in place of the CLI's first sentence. */
  what?: string;
  /** What to do, in place of any advice the CLI gives. */
  hint?: string;
  /** What to do when the CLI gives no advice. */
  fallbackHint: string;
};

/** The words Telecode has for `kind`; undefined for a kind not known. */
export function kindWords(kind: string): KindWords | undefined {
  const step = NEXT_STEP[kind];
  if (step === undefined) return undefined;
  const what = WHAT[kind];
  const hint = KIND_HINT[kind];
  return {
    ...(what === undefined ? {} : { what }),
    ...(hint === undefined ? {} : { hint }),
    fallbackHint: KIND_FALLBACK_HINT[kind] ?? STEP_HINT[step],
  };
}

/**
 * The note for a file the API refused mid-turn (a media_removed frame before a retry that left it
 * out): the answer that follows was written without it. `params` is the frame's api_error_params.
 */
export function mediaRemovedText(params: unknown): string {
  const p = typeof params === "object" && params !== null ? (params as Record<string, unknown>) : {};
  const reason = p["media_reason"];
  if (reason === "media_budget")
    return `The images and PDFs in this session are more than the API takes at once, so Claude Code left some out and Claude went on without them. To send them again, ${FRESH_SESSION}.`;
  if (reason === "unsupported_by_model")
    return `This model does not read PDFs, so Claude Code left the PDF out and Claude went on without it. Choose ${OTHER_MODEL}, or send the pages as images.`;
  const what = p["media"] === "image" ? "an image" : "a PDF";
  return `The API could not process ${what} in this session (too large, too many pages, or unreadable), so Claude Code left it out and Claude went on without it. Send a smaller one, or only the pages that matter.`;
}
