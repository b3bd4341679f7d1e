// Builds the Logger on pino: JSON lines to a rotated file under the data directory, short
// pretty lines to stderr when it is a terminal, and secrets redacted from every line.
import { join } from "node:path";
import { pino, type Logger as PinoLogger } from "pino";
import { definedFields, ioErrorWords } from "../domain/index.js";
import type { EventName, LogFields, Logger, LogLevel } from "../ports/index.js";
import { LogError } from "./errors.js";
import { prettyStream } from "./pretty-stream.js";
import { redactSecrets } from "./redact.js";
import { RotatingFileStream } from "./rotating-file.js";

export type LoggerOptions = {
  /** Lowest level written; default "info". */
  level?: LogLevel;
  /** The data directory; the log goes to DIR/logs/telecode.log. Omit for no file. */
  dataDir?: string;
  maxFileBytes?: number;
  maxFiles?: number;
  /** Where pretty lines go when it is a terminal; default process.stderr. null: nowhere. */
  stderr?: (NodeJS.WritableStream & { isTTY?: boolean }) | null;
  /** Force pretty stderr output on or off instead of asking `stderr.isTTY`. */
  pretty?: boolean;
  /** Values redacted from every line (the bot token, API keys). */
  secrets?: readonly string[];
};

export type ClosableLogger = Logger & {
  /** The JSON log file, when there is one. */
  readonly filePath: string | null;
  close(): void;
};

/** Fields that may hold what a person wrote or the model answered (see Logger). */
const CONTENT_FIELDS = ["prompt", "content"] as const;

function withoutContent(fields: LogFields): LogFields {
  if (!CONTENT_FIELDS.some((key) => key in fields)) return fields;
  const copy: Record<string, unknown> = { ...fields };
  for (const key of CONTENT_FIELDS) {
    const value = copy[key];
    if (value !== undefined) copy[key] = typeof value === "string" ? `[${value.length} chars]` : "[omitted]";
  }
  return copy;
}

function wrap(base: PinoLogger, secrets: string[]): Logger {
  const write = (level: LogLevel, fields: LogFields, message?: string): void => {
    const safe = level === "debug" ? fields : withoutContent(fields);
    if (message === undefined) base[level](safe);
    else base[level](safe, message);
  };
  return {
    debug: (fields, message) => write("debug", fields, message),
    info: (fields, message) => write("info", fields, message),
    warn: (fields, message) => write("warn", fields, message),
    error: (fields, message) => write("error", fields, message),
    event: (name: EventName, fields: LogFields = {}, level: LogLevel = "info") =>
      write(level, { event: name, ...fields }),
    child: (bindings) => wrap(base.child(withoutContent(bindings)), secrets),
    addSecret: (secret) => {
      if (!secrets.includes(secret)) secrets.push(secret);
    },
  };
}

function openLogFile(dataDir: string, options: LoggerOptions): RotatingFileStream {
  const dir = join(dataDir, "logs");
  const stderr = options.stderr === undefined ? process.stderr : options.stderr;
  try {
    return new RotatingFileStream({
      dir,
      ...definedFields({ maxBytes: options.maxFileBytes, maxFiles: options.maxFiles }),
      // Said where someone may read it; the log itself says how many lines were lost once it can.
      onWriteFailed: (error) =>
        stderr?.write(
          `telecode: the log file ${join(dir, "telecode.log")} cannot be written (${ioErrorWords(error)}); its lines are lost until it can be.\n`,
        ),
    });
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? "error";
    throw new LogError(
      "log.open_failed",
      `Could not open the log file in ${dir} (${code}). Check that the data directory (state.dir) is a writable directory.`,
      { cause, details: { dir } },
    );
  }
}

/**
 * A logger for production use. Writes are synchronous, so nothing logged is lost on a crash.
 * Throws LogError `log.open_failed` when the log file cannot be opened.
 */
export function createLogger(options: LoggerOptions = {}): ClosableLogger {
  const level = options.level ?? "info";
  const secrets = [...(options.secrets ?? [])];
  const file = options.dataDir === undefined ? null : openLogFile(options.dataDir, options);
  const stderr = options.stderr === undefined ? process.stderr : options.stderr;
  const pretty = stderr !== null && (options.pretty ?? stderr.isTTY === true);
  const streams: { level: LogLevel; stream: { write(chunk: string): boolean } }[] = [];
  if (file) streams.push({ level, stream: file });
  if (pretty) streams.push({ level, stream: prettyStream(stderr) });
  const base = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: pino.stdSerializers.err },
      hooks: { streamWrite: (line) => redactSecrets(line, secrets) },
    },
    pino.multistream(streams),
  );
  return {
    ...wrap(base, secrets),
    filePath: file?.path ?? null,
    close: () => file?.close(),
  };
}
