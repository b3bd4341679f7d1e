// The [files] and [voice] tables: defaults, a full file, and every mistake named with its key.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";
import { DEFAULT_DENY_GLOBS } from "../../src/media/index.js";
import { thrownBy, useTempHome } from "./helpers.js";

const tempHome = useTempHome();
const MB = 1024 * 1024;

function problemsOf(text: string): readonly string[] {
  const t = tempHome();
  t.writeConfig(text);
  const error = thrownBy(() => loadConfig({ env: { HOME: t.home } }));
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems;
}

describe("[files] and [voice]", () => {
  it("default to uploads under .telecode, Telegram's limits, the secret deny globs, and voice off", () => {
    const { home } = tempHome();
    const { config } = loadConfig({ env: { HOME: home } });
    expect(config.files).toEqual({
      uploadsDir: ".telecode/uploads",
      maxFileBytes: 20 * MB,
      maxMessageBytes: 50 * MB,
      allowedTypes: ["*"],
      denyGlobs: DEFAULT_DENY_GLOBS,
      outboxMaxFiles: 10,
      outboxMaxFileBytes: 50 * MB,
    });
    expect(config.files.denyGlobs).toEqual(expect.arrayContaining([".env*", "*.pem", "*.key", "id_rsa*", ".git/**"]));
    expect(config.voice).toEqual({ apiRoot: "", model: "whisper-1", apiKeyEnv: "", language: "", timeoutSeconds: 60 });
  });

  it("read every key from the file", () => {
    const t = tempHome();
    t.writeConfig(`
[files]
uploads_dir = "~/inbox"
max_file_mb = 10
max_message_mb = 30
allowed_types = ["image/*", "application/pdf", ".log"]
deny_globs = ["*.sqlite"]
outbox_max_files = 3
outbox_max_mb = 5

[voice]
api_root = "http://127.0.0.1:8000/v1/"
model = "Systran/faster-whisper-small"
api_key_env = "GROQ_API_KEY"
language = "de"
timeout_seconds = 20
`);
    const { config } = loadConfig({ env: { HOME: t.home } });
    expect(config.files).toEqual({
      uploadsDir: `${t.home}/inbox`,
      maxFileBytes: 10 * MB,
      maxMessageBytes: 30 * MB,
      allowedTypes: ["image/*", "application/pdf", ".log"],
      denyGlobs: ["*.sqlite"],
      outboxMaxFiles: 3,
      outboxMaxFileBytes: 5 * MB,
    });
    expect(config.voice).toEqual({
      apiRoot: "http://127.0.0.1:8000/v1",
      model: "Systran/faster-whisper-small",
      apiKeyEnv: "GROQ_API_KEY",
      language: "de",
      timeoutSeconds: 20,
    });
    expect(Object.isFrozen(config.files.denyGlobs)).toBe(true);
  });

  it("name the key and what was expected for each mistake, all at once", () => {
    expect(
      problemsOf(`
[files]
max_file_mb = 0
allowed_types = ["image/*", "nope"]
deny_globs = [""]
outbox_max_mb = 60
upload_dir = "x"

[voice]
api_root = "ftp://example.org"
api_key_env = "NOT A NAME"
language = "English"
timeout_seconds = 0
`),
    ).toEqual([
      "config.toml: files.max_file_mb must be a whole number of MB from 1 to 2000",
      'config.toml: files.allowed_types[1] must be "*", a MIME type such as "image/*" or "application/pdf", or an extension such as ".log"',
      "config.toml: files.deny_globs[0] must not hold an empty glob",
      "config.toml: files.outbox_max_mb must be a whole number of MB from 1 to 50",
      "config.toml: files.upload_dir is not a known key; did you mean files.uploads_dir?",
      'config.toml: voice.api_root must be an http(s) URL such as "https://api.openai.com/v1", or "" to leave voice notes off',
      "config.toml: voice.api_key_env must be an environment variable name",
      'config.toml: voice.language must be an ISO-639-1 code such as "en", or "" to let the server detect it',
      "config.toml: voice.timeout_seconds must be a whole number of seconds from 1 to 600",
    ]);
  });

  it("refuse a per-message limit below the per-file one, and a table of the wrong type", () => {
    expect(problemsOf(`[files]\nmax_file_mb = 20\nmax_message_mb = 10\n`)).toEqual([
      "config.toml: files.max_message_mb must be at least files.max_file_mb",
    ]);
    expect(problemsOf(`files = 3\nvoice = "on"\n`)).toEqual([
      "config.toml: files must be a table ([files])",
      "config.toml: voice must be a table ([voice])",
    ]);
  });
});
