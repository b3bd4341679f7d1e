// The logging port the engine writes to: pino-compatible (fields first, then a message),
// with dotted event names in `msg` (e.g. "claude.spawned"). A no-op default for callers
// that pass none.

export type LogFn = (fields: Record<string, unknown>, msg: string) => void;

export type Logger = { debug: LogFn; info: LogFn; warn: LogFn; error: LogFn };

export function createSilentLogger(): Logger {
  const none: LogFn = () => undefined;
  return { debug: none, info: none, warn: none, error: none };
}
