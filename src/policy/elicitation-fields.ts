// What an MCP server asks for when it asks the person (MCP elicitation), read from the request
// Claude Code passes on: a form's fields from its JSON schema (the flat kind MCP allows: text,
// numbers, yes or no, one or several of a list), or a link to open. And a typed value checked
// against its field. Pure; never throws on what a server sends.
import { definedFields } from "../domain/index.js";

export type FieldOption = { value: string; label: string };

export type ElicitationField = {
  /** The property name: the key of its value in what the server gets. */
  name: string;
  /** The schema's title, else the name. */
  label: string;
  description?: string;
  required: boolean;
  kind: "text" | "number" | "integer" | "yes_no" | "one_of" | "some_of";
  /** For one_of and some_of: the values, with the labels the server gave them. */
  options: readonly FieldOption[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** email, uri, date, date-time. */
  format?: string;
};

export type Elicitation = {
  /** Who asks: the server's display name, else its name in the configuration. */
  server: string;
  message: string;
  mode: "form" | "url";
  /** URL mode: the link the person is asked to open. */
  url?: string;
  fields: readonly ElicitationField[];
};

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;
const number = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** A listed value as text (a list of values may hold numbers); anything else is no value. */
const scalar = (value: unknown): string | undefined =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;

/** An enum's values with their labels: `oneOf`/`anyOf` of `{const, title}`, or `enum` (with the older `enumNames`). */
function optionsOf(schema: Json): FieldOption[] | undefined {
  const listed = Array.isArray(schema["oneOf"]) ? schema["oneOf"] : schema["anyOf"];
  if (Array.isArray(listed)) {
    const options = listed.flatMap((item: unknown) => {
      const value = isRecord(item) ? scalar(item["const"]) : undefined;
      return value === undefined ? [] : [{ value, label: text((item as Json)["title"]) ?? value }];
    });
    if (options.length > 0) return options;
  }
  if (!Array.isArray(schema["enum"])) return undefined;
  const names = Array.isArray(schema["enumNames"]) ? (schema["enumNames"] as unknown[]) : [];
  return (schema["enum"] as unknown[]).flatMap((item, i) => {
    const value = scalar(item);
    return value === undefined ? [] : [{ value, label: text(names[i]) ?? value }];
  });
}

function fieldOf(name: string, schema: Json, required: boolean): ElicitationField {
  const label = text(schema["title"]) ?? name;
  const base = { name, label, required, ...definedFields({ description: text(schema["description"]) }), options: [] };
  const bounds = definedFields({ minimum: number(schema["minimum"]), maximum: number(schema["maximum"]) });
  switch (schema["type"]) {
    case "boolean":
      return { ...base, kind: "yes_no" };
    case "number":
    case "integer":
      return { ...base, kind: schema["type"], ...bounds };
    case "array": {
      const options = isRecord(schema["items"]) ? optionsOf(schema["items"]) : undefined;
      if (options !== undefined) return { ...base, kind: "some_of", options };
      break;
    }
    default: {
      const options = optionsOf(schema);
      if (options !== undefined) return { ...base, kind: "one_of", options };
    }
  }
  const limits = definedFields({
    minLength: number(schema["minLength"]),
    maxLength: number(schema["maxLength"]),
    format: text(schema["format"]),
  });
  return { ...base, kind: "text", ...limits };
}

/** Reads an elicitation request's fields as Claude Code sends them (snake_case, as on the wire). */
export function parseElicitation(input: Readonly<Json>): Elicitation {
  const server = text(input["display_name"]) ?? text(input["mcp_server_name"]) ?? "An MCP server";
  const message = text(input["message"]) ?? "";
  const url = text(input["url"]);
  if (input["mode"] === "url")
    return { server, message, mode: "url", ...(url === undefined ? {} : { url }), fields: [] };
  const schema = isRecord(input["requested_schema"]) ? input["requested_schema"] : {};
  const properties = isRecord(schema["properties"]) ? schema["properties"] : {};
  const required = new Set(Array.isArray(schema["required"]) ? (schema["required"] as unknown[]) : []);
  const listed = Array.isArray(input["property_order"]) ? (input["property_order"] as unknown[]) : [];
  const names = [
    ...listed.filter((name): name is string => typeof name === "string" && name in properties),
    ...Object.keys(properties).filter((name) => !listed.includes(name)),
  ];
  const fields = names.map((name) => {
    const property = properties[name];
    return fieldOf(name, isRecord(property) ? property : {}, required.has(name));
  });
  return { server, message, mode: "form", fields };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What a typed value is worth in `field`: the value the server gets, or what is wrong with it. */
export function typedValue(field: ElicitationField, typed: string): { value: string | number } | { wrong: string } {
  const words = typed.trim();
  if (field.kind === "number" || field.kind === "integer") {
    const value = Number(words.replace(/,/g, "."));
    if (words === "" || !Number.isFinite(value)) return { wrong: `${field.label} needs a number.` };
    if (field.kind === "integer" && !Number.isInteger(value)) return { wrong: `${field.label} needs a whole number.` };
    if (field.minimum !== undefined && value < field.minimum)
      return { wrong: `${field.label} needs a number of at least ${field.minimum}.` };
    if (field.maximum !== undefined && value > field.maximum)
      return { wrong: `${field.label} needs a number of at most ${field.maximum}.` };
    return { value };
  }
  if (field.minLength !== undefined && words.length < field.minLength)
    return { wrong: `${field.label} needs at least ${field.minLength} characters.` };
  if (field.maxLength !== undefined && words.length > field.maxLength)
    return { wrong: `${field.label} takes at most ${field.maxLength} characters.` };
  if (field.format === "email" && !EMAIL.test(words)) return { wrong: `${field.label} needs an email address.` };
  if (field.format === "uri" && !URL.canParse(words)) return { wrong: `${field.label} needs a link (https://…).` };
  if (field.format === "date" && !DATE.test(words)) return { wrong: `${field.label} needs a date as YYYY-MM-DD.` };
  if (field.format === "date-time" && Number.isNaN(Date.parse(words)))
    return { wrong: `${field.label} needs a date and time (2026-12-07T09:30:00Z).` };
  if (words === "") return { wrong: "An empty answer does not count; type some text." };
  return { value: words };
}
