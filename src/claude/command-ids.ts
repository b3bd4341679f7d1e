// The uuids Telecode writes on its user lines and what each was for. Every one starts with the
// same eight hex digits, so a turn Telecode asked for is told apart from one the CLI started
// itself even after a restart (a re-attached process, whose earlier uuids are not remembered).
import { randomUUID } from "node:crypto";
import type { CommandInfo } from "./turn-origins.js";

/** The first group of every uuid Telecode writes ("7e1ec0de": telecode). */
const MARK = "7e1ec0de";
/** Commands remembered at most; older ones are still known as Telecode's, without their run. */
const MAX_REMEMBERED = 256;

const UNKNOWN_RUN: CommandInfo = Object.freeze({ origin: "person" });

export class CommandIds {
  readonly #issued = new Map<string, CommandInfo>();

  /** A fresh uuid for a user line that starts a turn for `info`. */
  issue(info: CommandInfo): string {
    const uuid = `${MARK}${randomUUID().slice(MARK.length)}`;
    if (this.#issued.size >= MAX_REMEMBERED) {
      const oldest = this.#issued.keys().next().value;
      if (oldest !== undefined) this.#issued.delete(oldest);
    }
    this.#issued.set(uuid, { ...info, uuid });
    return uuid;
  }

  /** What a uuid was written for; a marked uuid no longer remembered is a person's message of an unknown run. */
  lookup(uuid: string): CommandInfo | undefined {
    return this.#issued.get(uuid) ?? (uuid.startsWith(MARK) ? UNKNOWN_RUN : undefined);
  }
}
