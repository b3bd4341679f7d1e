// The `[files]` and `[voice]` tables: photos, files and voice notes . Schema in the
// file's snake_case names with every default, and the frozen camelCase config built from it.
import * as z from "zod/mini";
import { ENV_NAME, isHttpUrl, STRING, tableError, wholeNumberIn } from "./schema-parts.js";
import { DEFAULT_DENY_GLOBS, MIB, TELEGRAM_UPLOAD_MAX_BYTES, type VoiceSettings } from "../media/index.js";

const LANGUAGE = /^[a-z]{2,3}$/;
const MAX_UPLOAD_MB = TELEGRAM_UPLOAD_MAX_BYTES / MIB;

const ALLOWED_TYPE = /^(\*|\*\/\*|[a-z0-9.+-]+\/(\*|[a-z0-9.+-]+)|\.[A-Za-z0-9_.+-]+)$/i;

const filesTable = z.strictObject(
  {
    uploads_dir: z._default(
      z.string({ error: STRING }).check(z.minLength(1, { error: "must not be empty" })),
      ".telecode/uploads",
    ),
    max_file_mb: z._default(wholeNumberIn("MB", 1, 2000), 20),
    max_message_mb: z._default(wholeNumberIn("MB", 1, 4000), 50),
    allowed_types: z._default(
      z
        .array(
          z.string({ error: STRING }).check(
            z.regex(ALLOWED_TYPE, {
              error: 'must be "*", a MIME type such as "image/*" or "application/pdf", or an extension such as ".log"',
            }),
          ),
          { error: "must be a list of strings" },
        )
        .check(z.minLength(1, { error: 'must not be empty (use ["*"] to allow every type)' })),
      ["*"],
    ),
    deny_globs: z._default(
      z.array(z.string({ error: STRING }).check(z.minLength(1, { error: "must not hold an empty glob" })), {
        error: "must be a list of strings",
      }),
      [...DEFAULT_DENY_GLOBS],
    ),
    outbox_max_files: z._default(wholeNumberIn("files", 0, 50), 10),
    outbox_max_mb: z._default(wholeNumberIn("MB", 1, MAX_UPLOAD_MB), MAX_UPLOAD_MB),
  },
  tableError("files"),
);

export const filesSchema = z.prefault(
  filesTable.check(
    z.refine((files) => files.max_message_mb >= files.max_file_mb, {
      error: "must be at least files.max_file_mb",
      path: ["max_message_mb"],
    }),
  ),
  {},
);

const voiceTable = z.strictObject(
  {
    api_root: z._default(
      z.string({ error: STRING }).check(
        z.refine((value) => value === "" || isHttpUrl(value), {
          error: 'must be an http(s) URL such as "https://api.openai.com/v1", or "" to leave voice notes off',
        }),
      ),
      "",
    ),
    model: z._default(z.string({ error: STRING }).check(z.minLength(1, { error: "must not be empty" })), "whisper-1"),
    api_key_env: z._default(
      z
        .string({ error: STRING })
        .check(
          z.refine((value) => value === "" || ENV_NAME.test(value), { error: "must be an environment variable name" }),
        ),
      "",
    ),
    language: z._default(
      z.string({ error: STRING }).check(
        z.refine((value) => value === "" || LANGUAGE.test(value), {
          error: 'must be an ISO-639-1 code such as "en", or "" to let the server detect it',
        }),
      ),
      "",
    ),
    timeout_seconds: z._default(wholeNumberIn("seconds", 1, 600), 60),
  },
  tableError("voice"),
);

export const voiceSchema = z.prefault(voiceTable, {});

export const MEDIA_KNOWN_KEYS = {
  files: Object.keys(filesTable.shape),
  voice: Object.keys(voiceTable.shape),
};

export type FilesConfig = Readonly<{
  /** As written (`~` expanded); relative paths are relative to each project's root. */
  uploadsDir: string;
  maxFileBytes: number;
  maxMessageBytes: number;
  allowedTypes: readonly string[];
  denyGlobs: readonly string[];
  outboxMaxFiles: number;
  outboxMaxFileBytes: number;
}>;

/** `[voice]`: the shape the transcription client takes (an empty apiRoot leaves voice notes off). */
export type VoiceConfig = VoiceSettings;

type FilesFile = z.output<typeof filesSchema>;
type VoiceFile = z.output<typeof voiceSchema>;

export function buildFilesConfig(files: FilesFile, expandHome: (path: string) => string): FilesConfig {
  return Object.freeze({
    uploadsDir: expandHome(files.uploads_dir),
    maxFileBytes: files.max_file_mb * MIB,
    maxMessageBytes: files.max_message_mb * MIB,
    allowedTypes: Object.freeze([...files.allowed_types]),
    denyGlobs: Object.freeze([...files.deny_globs]),
    outboxMaxFiles: files.outbox_max_files,
    outboxMaxFileBytes: files.outbox_max_mb * MIB,
  });
}

export function buildVoiceConfig(voice: VoiceFile): VoiceConfig {
  return Object.freeze({
    apiRoot: voice.api_root.replace(/\/+$/, ""),
    model: voice.model,
    apiKeyEnv: voice.api_key_env,
    language: voice.language,
    timeoutSeconds: voice.timeout_seconds,
  });
}
