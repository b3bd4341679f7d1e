// The wire layer's public surface: stream-json types, JSONL framing, decoding, encoding.
// Pure: no I/O, no timers. Other folders import from here, never from the files directly.
export type {
  WireUnknownFields,
  WireTextBlock,
  WireThinkingBlock,
  WireToolUseBlock,
  WireToolResultBlock,
  WireOtherBlock,
  WireReadBlock,
  WireContentBlock,
  WireUsage,
  WireModelUsage,
  WireSystemInit,
  WireSystemStatus,
  WireSystemApiRetry,
  WireSystemCompactBoundary,
  WireSystemTask,
  WireSystemHook,
  WireSystemThinkingTokens,
  WireSystemOther,
  WireSystemMessage,
  WireAssistantMessage,
  WireToolResultMeta,
  WireUserMessage,
  WireResultMessage,
  WireRateLimitEvent,
  WireStreamEvent,
  WirePermissionUpdate,
  WireCanUseToolRequest,
  WireHookCallbackRequest,
  WireOtherControlRequest,
  WireIncomingRequest,
  WireControlRequest,
  WireControlResponse,
  WireControlCancelRequest,
  WireCommandLifecycle,
  WireAuxiliaryType,
  WireAuxiliaryMessage,
  WireMessage,
  WireDecodeProblem,
  PermissionAnswer,
  OutgoingControlRequest,
} from "./types.js";
export { readBlock } from "./content-blocks.js";
export { LineFramer, DEFAULT_MAX_LINE_BYTES, decodeUtf8Line } from "./line-framer.js";
export type { LineDecoder, LineFramerOptions, OversizedLine } from "./line-framer.js";
export { decodeLine, isDecodeProblem, oversizedLineProblem, PROBLEM_LINE_MAX_CHARS } from "./decode.js";
export {
  encodeUserMessage,
  encodeControlSuccess,
  encodePermissionAnswer,
  encodeHookOutput,
  encodeControlError,
  encodeControlRequest,
} from "./encode.js";
export type {
  UserMessageOptions,
  WireImageMediaType,
  WireUserContentBlock,
  WireUserDocumentBlock,
  WireUserImageBlock,
  WireUserTextBlock,
} from "./encode.js";
