// A logger that keeps the fields of each event by name, for tests that check what was logged.
import { silentLogger, type LogFields, type Logger } from "../../src/ports/index.js";

export type EventLog = Logger & { fields(name: string): LogFields[] };

export function eventLog(): EventLog {
  const seen: { name: string; fields: LogFields }[] = [];
  const logger: EventLog = {
    ...silentLogger,
    event: (name, fields = {}) => void seen.push({ name, fields }),
    child: () => logger,
    fields: (name) => seen.filter((e) => e.name === name).map((e) => e.fields),
  };
  return logger;
}
