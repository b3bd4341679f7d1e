// What would make Claude Code refuse to start, found before a message meets it: its settings file
// (`.claude.json` in HOME, or in CLAUDE_CONFIG_DIR) that is not JSON, and a proxy variable
// Telecode passes it that is not a complete URL. The chat says the same when it happens, in the
// same words (src/claude/startup-refusals.ts); these are the two causes the recordings met.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildChildEnv, MOVE_SETTINGS_ASIDE, proxyAdvice } from "../claude/index.js";
import { fail, ok, warn, type CheckResult } from "./doctor-result.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The proxy variables Claude Code reads a URL from, and refuses to start over. */
const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"] as const;

/** The settings file's check, when there is one (Claude Code makes it on its first start). */
function checkSettingsFile(file: string): CheckResult | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    const message = error instanceof Error ? error.message : String(error);
    return warn("Claude settings", `${file} cannot be read (${message})`, "let the user Telecode runs as read it");
  }
  // A blank file is taken as empty settings.
  if (text.trim() === "") return ok("Claude settings", file);
  try {
    JSON.parse(text);
    return ok("Claude settings", file);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return fail(
      "Claude settings",
      `${file} is not valid JSON (${why}), so Claude Code will not start`,
      `correct the JSON in it, or ${MOVE_SETTINGS_ASIDE}`,
    );
  }
}

/** The checks, in the environment the engine gives the CLI. Never shows a proxy's value (it may hold a password). */
export function checkClaudeStarts(env: Env, homeDir: string): CheckResult[] {
  const childEnv = buildChildEnv({ ...env });
  const results: CheckResult[] = [];
  const settings = checkSettingsFile(join(childEnv["CLAUDE_CONFIG_DIR"] ?? homeDir, ".claude.json"));
  if (settings !== undefined) results.push(settings);
  for (const name of PROXY_VARIABLES) {
    const value = childEnv[name];
    if (value !== undefined && value !== "" && !URL.canParse(value))
      results.push(fail("proxy", `${name} is not a complete URL, so Claude Code will not start`, proxyAdvice(name)));
  }
  return results;
}
