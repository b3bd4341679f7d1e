// The log folder's public surface: the Logger interface, the pino-backed logger, redaction.
export { createLogger, silentLogger, type ClosableLogger, type LoggerOptions } from "./create-logger.js";
export { LogError, type LogErrorCode } from "./errors.js";
export type { EventName, LogFields, Logger, LogLevel } from "./logger-types.js";
export { formatPrettyLine } from "./pretty-stream.js";
export { redactSecrets } from "./redact.js";
export { RotatingFileStream, type RotatingFileOptions } from "./rotating-file.js";
