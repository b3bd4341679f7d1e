// The pieces every config table's schema shares: the enums a key may take, common messages and
// small builders. Messages complete "<key path> …" for a person to read.
import * as z from "zod/mini";
import { CHOOSABLE_PERMISSION_MODES } from "../domain/index.js";

/** Modes a config may choose; `bypassPermissions` is reachable only via dangerously_skip_permissions. */
export const CONFIG_PERMISSION_MODES = CHOOSABLE_PERMISSION_MODES;

export const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

export const BOOL = "must be true or false";
export const STRING = "must be a string";
export const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const quoted = (values: readonly string[]): string => values.map((v) => JSON.stringify(v)).join(", ");

/** A wrong type for a whole table gets a table message; unknown keys keep their own issue. */
export function tableError(name: string) {
  return {
    error: (iss: { code?: string }) => (iss.code === "invalid_type" ? `must be a table ([${name}])` : undefined),
  };
}

/** A whole number of `unit` from `min` to `max`, with both bounds in the message. */
export function wholeNumberIn(unit: string, min: number, max: number) {
  const error = `must be a whole number of ${unit} from ${min} to ${max}`;
  return z.int({ error }).check(z.minimum(min, { error }), z.maximum(max, { error }));
}

/** An amount of money: a number of US dollars above 0. */
export function dollars() {
  const error = "must be an amount in US dollars above 0, such as 2.5";
  return z.number({ error }).check(z.positive({ error }));
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * A duration key: a whole number of `unit`, 0 or more, at most `max`. Every maximum keeps the
 * longest timer Telecode derives from it (×3 for stall notes) under Node's 2^31 ms limit.
 */
export function duration(unit: "minutes" | "seconds", max: number, maxInWords: string) {
  const error = `must be a whole number of ${unit} (0 or more)`;
  return z
    .int({ error })
    .check(z.minimum(0, { error }), z.maximum(max, { error: `must be at most ${max} ${unit} (${maxInWords})` }));
}

/** A forum topic's thread id: the number after the group's in a link to the topic (t.me/c/1234567890/42). */
export function topicId() {
  const error = "must be a topic's thread id: the last number in a link to the topic (t.me/c/…/42)";
  return z.int({ error }).check(z.minimum(1, { error }));
}

export function permissionModeSchema() {
  return z.enum(CONFIG_PERMISSION_MODES, {
    error: (iss) =>
      iss.input === "bypassPermissions"
        ? "must not be bypassPermissions; set claude.dangerously_skip_permissions = true to bypass approvals"
        : `must be one of ${quoted(CONFIG_PERMISSION_MODES)}`,
  });
}
