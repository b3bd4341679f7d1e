// The log folder's public surface: the pino-backed Logger (the interface is in src/ports),
// pretty terminal lines, redaction, the rotated file.
export { createLogger, type ClosableLogger, type LoggerOptions } from "./create-logger.js";
export { LogError, type LogErrorCode } from "./errors.js";
export { formatPrettyLine } from "./pretty-stream.js";
export { redactSecrets } from "./redact.js";
export { RotatingFileStream, type RotatingFileOptions } from "./rotating-file.js";
