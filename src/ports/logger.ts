// The Logger every module takes (dependencies are passed in; nobody imports a global logger),
// and a logger that drops everything. The pino-backed implementation lives in src/log.

export type LogLevel = "debug" | "info" | "warn" | "error";

export type LogFields = Readonly<Record<string, unknown>>;

/** Log events are dotted, area first: "claude.spawned", "outbox.retry", "store.migrated". */
export type EventName = `${string}.${string}`;

/**
 * Conventions every caller follows:
 * - put `runId` and `sessionId` on every line about a run or session (a child logger helps);
 * - what a person wrote or the model answered goes only in a field named `prompt` or
 *   `content`; at info and above the logger replaces those fields by their length, so
 *   prompt text reaches the log only at debug level;
 * - errors go in a field named `err` (serialized with message, code and stack).
 */
export interface Logger {
  debug(fields: LogFields, message?: string): void;
  info(fields: LogFields, message?: string): void;
  warn(fields: LogFields, message?: string): void;
  error(fields: LogFields, message?: string): void;
  /** One named event with its fields, at info unless told otherwise. */
  event(name: EventName, fields?: LogFields, level?: LogLevel): void;
  /** A logger whose lines all carry `bindings` (e.g. `{ runId, sessionId }`). */
  child(bindings: LogFields): Logger;
  /** Redacts this value from every later line, e.g. a token learned after start. */
  addSecret(secret: string): void;
}

const noop = (): void => undefined;

/** A Logger that drops everything; for tests and for callers that pass none. */
export const silentLogger: Logger = Object.freeze({
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  event: noop,
  child: () => silentLogger,
  addSecret: noop,
});
