// Scenarios i–l2: interrupts (during a tool, while streaming, with a permission pending), the
// consumer's own control requests (set_permission_mode, set_model), API errors and retries (and
// the refusals Claude Code names by kind: a PDF too large, a CLI too old, a broken history), and
// the rate-limit events a Claude gateway token gets.
import { reply } from "../fake-anthropic/index.js";
import { fiveHourHeaders as fiveHour, GATEWAY_TOKEN } from "../fake-anthropic/usage-limits.js";
import type { Scenario } from "./scenario.js";
import { controlRequest, controlRun, interrupt, thenPrompt } from "./steps.js";

/** A PDF of no pages: the fake API never reads it, the CLI sends it on as a document block. */
const TINY_PDF = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64");

const gatewayEnv = { ANTHROPIC_API_KEY: null, ANTHROPIC_AUTH_TOKEN: GATEWAY_TOKEN };

/** 160 characters: 40 deltas of 4 at 100 ms, so the stream is still running when the interrupt comes. */
const LONG_TEXT = "This is a long answer that streams slowly, four characters at a time. ".repeat(3).slice(0, 160);

export const controlScenarios: readonly Scenario[] = [
  {
    name: "i-interrupt-during-bash",
    description:
      "consumer sends control_request interrupt 1.5 s after the model's Bash `sleep 20` call starts (sleep needs no permission, so no can_use_tool is asked); after the interrupted result a second user message shows the session continues",
    replies: [
      reply.tool("Bash", { command: "sleep 20 && echo finished", description: "Wait twenty seconds", timeout: 60000 }),
      reply.text("Continuing after the interrupt."),
    ],
    runs: [
      controlRun({
        prompt: "Wait a while",
        middle: [
          { waitFor: "assistant/tool_use" },
          { pauseMs: 1500 },
          interrupt(),
          ...thenPrompt("Never mind the wait, just say something"),
        ],
        results: 2,
      }),
    ],
  },
  {
    name: "i2-interrupt-during-stream",
    description:
      "interrupt while the model's text response is still streaming (40 text deltas, 100 ms apart, --include-partial-messages); the interrupt is sent about 1 s into the stream",
    replies: [reply.text(LONG_TEXT, { chunks: 40, deltaDelayMs: 100 })],
    runs: [
      controlRun({
        prompt: "Tell me something long",
        extraArgs: ["--include-partial-messages"],
        middle: [{ waitFor: "stream_event" }, { pauseMs: 950 }, interrupt()],
        closeAfterMs: 1000,
      }),
    ],
  },
  {
    name: "i3-interrupt-pending-permission",
    description:
      "a Bash call waits for permission (can_use_tool) and the consumer never answers it; 1 s later the consumer sends interrupt; shows whether the CLI withdraws the pending request (control_cancel_request) and how the turn ends",
    replies: [reply.bash("touch should-not-exist.txt", "Create a file")],
    runs: [
      controlRun({
        prompt: "Create a file",
        middle: [{ waitFor: "control_request/can_use_tool" }, { pauseMs: 1000 }, interrupt()],
        closeAfterMs: 1000,
      }),
    ],
  },
  {
    name: "j-set-permission-mode-plan",
    description:
      "after the first result the consumer sends set_permission_mode plan; then a second user message shows the mode in effect",
    replies: [reply.text("First answer in default mode."), reply.text("Second answer, now in plan mode.")],
    runs: [
      controlRun({
        prompt: "First question",
        middle: thenPrompt("Second question", {
          before: [
            controlRequest("set_mode_1", { subtype: "set_permission_mode", mode: "plan" }),
            { waitFor: "control_response", count: 2 },
            { pauseMs: 500 },
          ],
        }),
        results: 2,
      }),
    ],
  },
  {
    name: "j2-set-model",
    description:
      "after the first result the consumer sends set_model (claude-sonnet-4-5); a second user message then goes to the API with the new model id",
    replies: [reply.text("First answer."), reply.text("Second answer after set_model.")],
    runs: [
      controlRun({
        prompt: "First question",
        middle: thenPrompt("Second question", {
          before: [
            controlRequest("set_model_1", { subtype: "set_model", model: "claude-sonnet-4-5" }),
            { waitFor: "control_response", count: 2 },
            { pauseMs: 300 },
          ],
        }),
        results: 2,
      }),
    ],
  },
  {
    name: "k-overloaded-retry",
    description: "the API answers 529 overloaded twice, then succeeds; system/api_retry events are expected",
    replies: [reply.overloaded(), reply.overloaded(), reply.text("Answer after two overloaded errors.")],
    runs: [controlRun({ prompt: "Hello" })],
  },
  {
    name: "k2-api-error-exhausted",
    description:
      "the API answers 500 api_error on every attempt; CLAUDE_CODE_MAX_RETRIES=2 keeps it short; shows the api_retry events and the error result after the last retry",
    env: { CLAUDE_CODE_MAX_RETRIES: "2" },
    replies: [0, 1, 2].map(() => reply.error(500, { errorType: "api_error", message: "Internal server error" })),
    runs: [controlRun({ prompt: "Hello" })],
  },
  {
    name: "k3-stream-break-retry",
    description:
      "the first response stream is cut after 3 SSE events (message_start, content_block_start, one text delta), the connection is destroyed; the second attempt succeeds",
    replies: [reply.cut(3, reply.text("First attempt, which breaks.")), reply.text("Second attempt, complete.")],
    runs: [controlRun({ prompt: "Hello", extraArgs: ["--include-partial-messages"] })],
  },
  {
    name: "k4-api-error-400",
    description:
      "the API answers 400 invalid_request_error (prompt is too long), which is not retried; shows the synthetic assistant error message and the error result; a second user message then succeeds",
    replies: [
      reply.error(400, {
        errorType: "invalid_request_error",
        message: "prompt is too long: 1050000 tokens > 1000000 maximum",
      }),
      reply.text("Second message works."),
    ],
    runs: [
      controlRun({
        prompt: "Hello",
        middle: thenPrompt("Try again"),
        results: 2,
      }),
    ],
  },
  {
    name: "k5-connection-lost",
    description:
      "every response stream is cut before its first SSE event (the connection destroyed); CLAUDE_CODE_MAX_RETRIES=1 keeps it short; shows the api_retry event with no status and the result with api_error connection_failed",
    env: { CLAUDE_CODE_MAX_RETRIES: "1" },
    replies: [0, 1].map(() => reply.cut(0, reply.text("Never arrives."))),
    runs: [controlRun({ prompt: "Hello" })],
  },
  {
    name: "k6-pdf-too-large",
    description:
      "the prompt carries a PDF as a document block and the API answers 400 'A maximum of 100 PDF pages may be provided.'; shows the result with api_error pdf_too_large; a second user message (without a PDF) then succeeds in the same session",
    replies: [
      reply.error(400, { message: "A maximum of 100 PDF pages may be provided." }),
      reply.text("The second message works."),
      reply.text("Spare answer."),
    ],
    runs: [
      controlRun({
        prompt: [
          { type: "document", source: { type: "base64", media_type: "application/pdf", data: TINY_PDF } },
          { type: "text", text: "Summarise this PDF" },
        ],
        middle: thenPrompt("Go on without it"),
        results: 2,
      }),
    ],
  },
  {
    name: "k7-version-too-old",
    description:
      "the API answers 400 with details.error_code claude_code_version_too_old ('Claude Code 2.1.0 does not support this model; version 9.9.0 or newer is required.'); shows the result with api_error claude_code_version_too_old",
    replies: Array.from({ length: 6 }, () =>
      reply.error(400, {
        message: "Claude Code 2.1.0 does not support this model; version 9.9.0 or newer is required.",
        details: { error_code: "claude_code_version_too_old" },
      }),
    ),
    runs: [controlRun({ prompt: "Hello" })],
  },
  {
    name: "k8-tool-history-mismatch",
    description:
      "the API answers 400 '`tool_use` ids were found without `tool_result` blocks immediately after' (a broken conversation history); shows the result with api_error tool_history_mismatch",
    replies: Array.from({ length: 6 }, () =>
      reply.error(400, {
        message:
          "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
      }),
    ),
    runs: [controlRun({ prompt: "Hello" })],
  },
  {
    name: "l-rate-limit-warning",
    description:
      "unified rate-limit headers on successful responses: first 'allowed', then 'allowed_warning' (5h window at 91%). The CLI only reads these headers for claude.ai subscribers or a Claude gateway token, so the run authenticates with ANTHROPIC_AUTH_TOKEN set to an unsigned JWT whose aud is claude-gateway (no API key)",
    env: gatewayEnv,
    replies: [
      { ...reply.bash("echo step-one", "Print a word"), headers: fiveHour("allowed", "0.5") },
      reply.text("Done, but you are close to your limit.", {
        headers: {
          ...fiveHour("allowed_warning", "0.91"),
          "anthropic-ratelimit-unified-5h-surpassed-threshold": "0.9",
        },
      }),
    ],
    runs: [controlRun({ prompt: "Print a word", extraArgs: ["--allowedTools", "Bash(echo:*)"] })],
  },
  {
    name: "l2-rate-limit-rejected",
    description:
      "the API answers 429 with anthropic-ratelimit-unified-status rejected (five_hour window, retry-after 1) on every attempt; CLAUDE_CODE_MAX_RETRIES=2 keeps the run short; same gateway-token authentication as l-rate-limit-warning",
    env: { ...gatewayEnv, CLAUDE_CODE_MAX_RETRIES: "2" },
    replies: [0, 1, 2].map(() =>
      reply.error(429, {
        errorType: "rate_limit_error",
        message: "Rate limited",
        headers: { ...fiveHour("rejected", "1.0"), "retry-after": "1" },
      }),
    ),
    runs: [controlRun({ prompt: "Hello" })],
  },
];
