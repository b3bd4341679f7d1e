// Config loading over random TOML (known keys with wrong or odd values, unknown keys, nested
// tables, broken syntax, a random TELECODE_BOT_TOKEN): it never crashes, and every problem it
// reports names where it is (a key path, a line and column, or the environment variable).
import fc from "fast-check";
import { stringify } from "smol-toml";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";
import { TOKEN, useTempHome } from "./helpers.js";

const tempHome = useTempHome();

const KNOWN: Record<string, readonly string[]> = {
  telegram: ["bot_token", "allowed_user_ids", "api_root", "notify_unauthorised"],
  claude: [
    "path",
    "permission_mode",
    "model",
    "effort",
    "allowed_tools",
    "extra_args",
    "dangerously_allow_unsafe_args",
    "provider",
    "use_api_billing",
    "dangerously_skip_permissions",
    "env_allow",
  ],
  limits: [
    "idle_session_minutes",
    "stall_note_minutes",
    "hard_silence_minutes",
    "approval_timeout_minutes",
    "drain_seconds",
    "offline_max_age_minutes",
    "plan_rearm",
    "rearm_ceiling_minutes",
  ],
  state: ["dir"],
};

const flagLike = fc.constantFrom("--settings", "--add-dir", "-p", "--model", "-dapi", "--", "doctor", "--verbose=1");
const scalar = fc.oneof(
  fc.string(),
  flagLike,
  fc.integer(),
  fc.constantFrom(0, -1, 35_791, 40_000, 2 ** 31, Number.MAX_SAFE_INTEGER),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constantFrom("anthropic", "bedrock", "plan", "max", "~/x", "", TOKEN, "ANTHROPIC_API_KEY"),
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }) },
);

function tableOf(name: string): fc.Arbitrary<Record<string, unknown>> {
  const keys = fc.oneof(fc.constantFrom(...(KNOWN[name] ?? ["path", "default"])), fc.string({ maxLength: 12 }));
  return fc.dictionary(keys, value, { maxKeys: 6 });
}

const projects = fc.dictionary(
  fc.oneof(fc.constantFrom("app", "my.app", "a b", ""), fc.string({ maxLength: 10 })),
  fc.oneof(
    fc.record({ path: fc.constantFrom("~", "~/nope", "/", "."), default: fc.boolean() }),
    tableOf("project"),
    scalar,
  ),
  { maxKeys: 3 },
);

const document = fc.record(
  {
    telegram: fc.oneof(tableOf("telegram"), scalar),
    claude: fc.oneof(tableOf("claude"), scalar),
    projects: fc.oneof(projects, scalar),
    limits: fc.oneof(tableOf("limits"), scalar),
    state: fc.oneof(tableOf("state"), scalar),
    extra: value,
  },
  { requiredKeys: [] },
);

/** `segment(.segment | [n])*`, a segment bare or quoted: how load-config names a key. */
const KEY_PATH = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*")(?:\.(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*")|\[\d+\])*`;
const LOCATED = new RegExp(
  String.raw`^(?:config\.toml: ${KEY_PATH}[ :]|config\.toml:\d+:\d+: not valid TOML: |environment: TELECODE_BOT_TOKEN )`,
);

function loadsOrExplains(text: string, envToken: string | undefined): void {
  const t = tempHome();
  t.writeConfig(text);
  const env = { HOME: t.home, ...(envToken === undefined ? {} : { TELECODE_BOT_TOKEN: envToken }) };
  try {
    loadConfig({ env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(LOCATED);
  }
}

const envToken = fc.option(fc.oneof(fc.string(), fc.constant(TOKEN)), { nil: undefined });

describe("loading random TOML", () => {
  it("never crashes, and every problem has a key path", () => {
    fc.assert(
      fc.property(document, envToken, (doc, token) => {
        let text: string;
        try {
          text = stringify(doc);
        } catch {
          fc.pre(false);
          return;
        }
        loadsOrExplains(text, token);
      }),
      { numRuns: 300 },
    );
  });

  it("never crashes on broken syntax, and points at the line", () => {
    const line = fc.oneof(
      fc.string(),
      fc.constantFrom("[telegram", "x = ", "a = [1,", '"k" = "v', "[[limits]]", "= 3", "[claude]\nextra_args = ["),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), envToken, (lines, token) =>
        loadsOrExplains(lines.join("\n"), token),
      ),
      { numRuns: 200 },
    );
  });
});
