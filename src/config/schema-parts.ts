// Pieces the config schema files share: the permission modes and efforts a config may name,
// and the helpers that give every key the same kind of message ("must be …").
import { z } from "zod";
import type { PermissionMode } from "../domain/index.js";

/** Modes a config may choose; `bypassPermissions` is reachable only via dangerously_skip_permissions. */
export const CONFIG_PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "plan-auto",
  "auto",
  "dontAsk",
] as const satisfies readonly PermissionMode[];

export const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

export const BOOL = "must be true or false";
export const STRING = "must be a string";
/** Project names, and the ids of other named entries such as [[schedules]]. */
export const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;

export const quoted = (values: readonly string[]): string => values.map((v) => JSON.stringify(v)).join(", ");

/** A wrong type for a whole table gets a table message; unknown keys keep their own issue. */
export function tableError(name: string) {
  return {
    error: (iss: { code?: string }) => (iss.code === "invalid_type" ? `must be a table ([${name}])` : undefined),
  };
}

export function wholeNumber(unit: string) {
  const error = `must be a whole number of ${unit} (0 or more)`;
  return z.int({ error }).min(0, { error });
}

export function stringList(itemError: string, item: z.ZodString = z.string({ error: itemError })) {
  return z.array(item, { error: "must be a list of strings" }).default([]);
}
