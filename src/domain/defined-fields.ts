// Optional properties from values that may be undefined: with exactOptionalPropertyTypes an
// absent property and one set to undefined differ, so undefined values are left out.

/** `fields` without its undefined values: `{ ...definedFields({ model, effort }) }`. */
export function definedFields<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) if (fields[key] !== undefined) out[key] = fields[key];
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
