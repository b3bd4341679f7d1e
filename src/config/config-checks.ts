// Checks beyond one key's schema: extra_args against the unsafe flags allowed, the provider
// against API billing, one default project, and TELECODE_BOT_TOKEN. Each reads only the keys it
// needs, so it runs even when other keys have problems and every problem is reported at once.
import type * as z from "zod/mini";
import { unsafeArgNameProblem, validateExtraArgs } from "../claude/index.js";
import type { Env } from "./paths.js";
import { BOT_TOKEN_PATTERN, PROJECT_NAME, projectSchema, TABLE_FIELDS, TOKEN_EXPECTED } from "./schema.js";

/** One problem: the table it belongs to (for ordering), where it is, and its sentence. */
export type Problem = { table: string; source: "file" | "env"; text: string };

export type CheckContext = { env: Env };

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `table.key` read with its own schema (its default when absent); undefined when it is itself wrong. */
function read<T>(raw: Record<string, unknown>, table: string, key: string, schema: z.ZodMiniType<T>): T | undefined {
  const values = raw[table] ?? {};
  if (!isTable(values)) return undefined;
  const parsed = schema.safeParse(values[key]);
  return parsed.success ? parsed.data : undefined;
}

function claudeProblems(raw: Record<string, unknown>): Problem[] {
  const fields = TABLE_FIELDS.claude;
  const problems: string[] = [];
  const args = read(raw, "claude", "extra_args", fields.extra_args);
  // The usable entries of the opt-in list, even when another entry of it is wrong.
  const listed = isTable(raw["claude"]) ? raw["claude"]["dangerously_allow_unsafe_args"] : undefined;
  const allowed = Array.isArray(listed)
    ? listed.filter((name): name is string => typeof name === "string" && unsafeArgNameProblem(name) === undefined)
    : [];
  if (args !== undefined) problems.push(...validateExtraArgs(args, allowed));
  const provider = read(raw, "claude", "provider", fields.provider);
  if (
    provider !== undefined &&
    provider !== "anthropic" &&
    read(raw, "claude", "use_api_billing", fields.use_api_billing)
  )
    problems.push(
      `claude.use_api_billing applies only to claude.provider = "anthropic"; with "${provider}" Claude uses that cloud's credentials, so set it to false.`,
    );
  return problems.map((text) => ({ table: "claude", source: "file", text }));
}

function projectProblems(raw: Record<string, unknown>): Problem[] {
  const projects = raw["projects"];
  if (!isTable(projects)) return [];
  const problems: string[] = [];
  const defaults: string[] = [];
  for (const [name, value] of Object.entries(projects)) {
    const parsed = projectSchema.safeParse(value);
    if (!PROJECT_NAME.test(name) || !parsed.success) continue;
    if (parsed.data.default) defaults.push(name);
  }
  if (defaults.length > 1)
    problems.push(`projects: only one project may have default = true (${defaults.join(", ")} do)`);
  return problems.map((text) => ({ table: "projects", source: "file", text }));
}

function environmentProblems(ctx: CheckContext): Problem[] {
  const token = ctx.env["TELECODE_BOT_TOKEN"];
  // Never quote the value: it is (or is meant to be) a secret.
  if (token === undefined || token === "" || BOT_TOKEN_PATTERN.test(token)) return [];
  return [{ table: "telegram", source: "env", text: `TELECODE_BOT_TOKEN ${TOKEN_EXPECTED}` }];
}

/** Every problem the checks find in the parsed TOML (`raw`) and the environment. */
export function checkAcrossKeys(raw: Record<string, unknown>, ctx: CheckContext): Problem[] {
  return [...environmentProblems(ctx), ...claudeProblems(raw), ...projectProblems(raw)];
}
