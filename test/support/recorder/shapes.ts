// Event shapes of a set of recordings, for the drift check: which message kinds appear (type,
// subtype, control subtypes, content block types), which fields each kind has with their JSON
// types, which tools system/init lists, and which lines Telecode's decoder cannot read. Then
// what is new, gone or changed between two sets. Pure: the caller reads the files.
import { knowsTool } from "../../../src/domain/index.js";
import { decodeLine, isDecodeProblem } from "../../../src/wire/index.js";

export type JsonType = "string" | "number" | "boolean" | "null" | "object" | "array";

export type DecodeProblemSeen = { scenario: string; reason: string; line: string };

export type Shapes = {
  /** Kind ("system/init", "control_request/can_use_tool", "assistant[tool_use]") → scenarios it appeared in. */
  kinds: Map<string, Set<string>>;
  /** Kind → field path ("message.usage") → the JSON types seen. */
  fields: Map<string, Map<string, Set<JsonType>>>;
  initTools: Set<string>;
  problems: DecodeProblemSeen[];
  lines: number;
};

/** Fields whose keys depend on the tool or the model name: only their own type counts. */
const OPAQUE = new Set(["input", "tool_input", "updatedInput", "tool_use_result", "modelUsage"]);
const MAX_DEPTH = 2;

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : (typeof value as "string" | "number" | "boolean");
}

const isObject = (value: unknown): value is Record<string, unknown> => jsonTypeOf(value) === "object";

/** "type/sub", where sub is the subtype, the control subtype, a stream event's type or a lifecycle state. */
export function kindOf(line: Record<string, unknown>): string {
  const type = typeof line["type"] === "string" ? line["type"] : "(no type)";
  const nested = (key: string, field: string): unknown => (isObject(line[key]) ? line[key][field] : undefined);
  const sub = [
    line["subtype"],
    nested("request", "subtype"),
    nested("response", "subtype"),
    nested("event", "type"),
    line["state"],
  ].find((value) => typeof value === "string");
  return sub === undefined ? type : `${type}/${String(sub)}`;
}

function addField(fields: Map<string, Set<JsonType>>, path: string, value: unknown): void {
  const types = fields.get(path) ?? new Set<JsonType>();
  types.add(jsonTypeOf(value));
  fields.set(path, types);
}

function walkFields(
  fields: Map<string, Set<JsonType>>,
  object: Record<string, unknown>,
  prefix: string,
  depth: number,
): void {
  for (const [key, value] of Object.entries(object)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    addField(fields, path, value);
    if (depth < MAX_DEPTH && isObject(value) && !OPAQUE.has(key)) walkFields(fields, value, path, depth + 1);
  }
}

function blockKinds(line: Record<string, unknown>): string[] {
  const content = isObject(line["message"]) ? line["message"]["content"] : undefined;
  if (!Array.isArray(content)) return [];
  return content.map(
    (block) => `${String(line["type"])}[${isObject(block) ? String(block["type"]) : jsonTypeOf(block)}]`,
  );
}

export function emptyShapes(): Shapes {
  return { kinds: new Map(), fields: new Map(), initTools: new Set(), problems: [], lines: 0 };
}

/** Adds one scenario's stdout (JSONL text) to `shapes`. */
export function addRecording(shapes: Shapes, scenario: string, stdout: string): void {
  for (const line of stdout.split("\n")) {
    if (line === "") continue;
    shapes.lines += 1;
    const decoded = decodeLine(line);
    if (isDecodeProblem(decoded))
      shapes.problems.push({ scenario, reason: decoded.reason, line: decoded.line.slice(0, 200) });
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(parsed)) continue;
    const kind = kindOf(parsed);
    for (const k of [kind, ...blockKinds(parsed)]) {
      const seenIn = shapes.kinds.get(k) ?? new Set<string>();
      seenIn.add(scenario);
      shapes.kinds.set(k, seenIn);
    }
    const fields = shapes.fields.get(kind) ?? new Map<string, Set<JsonType>>();
    walkFields(fields, parsed, "", 1);
    shapes.fields.set(kind, fields);
    if (kind === "system/init" && Array.isArray(parsed["tools"]))
      for (const tool of parsed["tools"]) if (typeof tool === "string") shapes.initTools.add(tool);
  }
}

export type FieldChange = { kind: string; path: string; before: string; after: string };

export type Drift = {
  newKinds: { kind: string; scenarios: string[] }[];
  goneKinds: string[];
  newFields: FieldChange[];
  goneFields: FieldChange[];
  changedFields: FieldChange[];
  newTools: string[];
  goneTools: string[];
  problems: DecodeProblemSeen[];
};

const typesText = (types: Set<JsonType> | undefined): string => [...(types ?? [])].sort().join("|");

/** What `next` has that `base` has not, and the other way round; decode problems are `next`'s. */
export function compareShapes(base: Shapes, next: Shapes): Drift {
  const newKinds = [...next.kinds]
    .filter(([kind]) => !base.kinds.has(kind))
    .map(([kind, scenarios]) => ({ kind, scenarios: [...scenarios].sort() }));
  const goneKinds = [...base.kinds.keys()].filter((kind) => !next.kinds.has(kind));
  const newFields: FieldChange[] = [];
  const goneFields: FieldChange[] = [];
  const changedFields: FieldChange[] = [];
  for (const [kind, nextFields] of next.fields) {
    const baseFields = base.fields.get(kind);
    if (baseFields === undefined) continue; // a new kind: reported once, not field by field
    for (const [path, types] of nextFields) {
      const before = typesText(baseFields.get(path));
      const after = typesText(types);
      if (before === "") newFields.push({ kind, path, before, after });
      else if (before !== after) changedFields.push({ kind, path, before, after });
    }
    for (const [path, types] of baseFields)
      if (!nextFields.has(path)) goneFields.push({ kind, path, before: typesText(types), after: "" });
  }
  return {
    newKinds,
    goneKinds,
    newFields,
    goneFields,
    changedFields,
    newTools: [...next.initTools].filter((tool) => !base.initTools.has(tool)).sort(),
    goneTools: [...base.initTools].filter((tool) => !next.initTools.has(tool)).sort(),
    problems: next.problems,
  };
}

export function hasDrift(drift: Drift): boolean {
  return (
    drift.newKinds.length +
      drift.goneKinds.length +
      drift.newFields.length +
      drift.goneFields.length +
      drift.changedFields.length +
      drift.newTools.length +
      drift.goneTools.length >
    0
  );
}

const list = (items: readonly string[], max = 4): string =>
  items.length <= max ? items.join(", ") : `${items.slice(0, max).join(", ")} and ${items.length - max} more`;

/** New tools whose steps Telecode titles by their name alone, not by what they act on. */
function unknownTools(tools: readonly string[]): string[] {
  const unknown = tools.filter((tool) => !tool.startsWith("mcp__") && !knowsTool(tool));
  if (unknown.length === 0) return [];
  return [
    `         steps show only the name of ${unknown.join(", ")}: teach describeTool (src/domain/tool-kind.ts) what ${unknown.length === 1 ? "it acts" : "they act"} on`,
  ];
}

/** The report's lines: one per finding, decode problems last. */
export function formatDrift(drift: Drift): string[] {
  const field = (c: FieldChange) => `${c.kind} ${c.path}`;
  return [
    ...drift.newKinds.map((k) => `new      ${k.kind}  (in ${list(k.scenarios)})`),
    ...drift.goneKinds.map((kind) => `gone     ${kind}`),
    ...drift.newFields.map((c) => `new      ${field(c)}: ${c.after}`),
    ...drift.goneFields.map((c) => `gone     ${field(c)} (was ${c.before})`),
    ...drift.changedFields.map((c) => `changed  ${field(c)}: ${c.before} → ${c.after}`),
    ...(drift.newTools.length > 0 ? [`new      system/init tools: ${drift.newTools.join(", ")}`] : []),
    ...unknownTools(drift.newTools),
    ...(drift.goneTools.length > 0 ? [`gone     system/init tools: ${drift.goneTools.join(", ")}`] : []),
    ...drift.problems.map((p) => `UNREADABLE ${p.scenario}: ${p.reason} — ${p.line}`),
  ];
}
