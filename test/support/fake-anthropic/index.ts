// The fake Anthropic Messages API for tests that run the real Claude CLI.
export { startFakeAnthropic, SUGGESTION_KEY, suggestionsFor } from "./server.js";
export type { FakeAnthropic, FakeAnthropicOptions } from "./server.js";
export { gate, reply } from "./scenario.js";
export { COLOR_QUESTION } from "./questions.js";
export type {
  FakeBlock,
  FakeReply,
  FakeMessageReply,
  FakeErrorReply,
  FakeCutReply,
  FakeHangReply,
  FakeDynamicReply,
  RecordedRequest,
} from "./scenario.js";
export { messageEvents, formatSse } from "./sse.js";
