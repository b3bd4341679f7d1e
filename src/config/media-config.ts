// The `[files]` and `[voice]` tables: photos, files and voice notes . Schema in the
// file's snake_case names with every default, and the frozen camelCase config built from it.
import { z } from "zod";
import { ENV_NAME, isHttpUrl, STRING, tableError, wholeNumberIn } from "./schema-parts.js";
import { DEFAULT_DENY_GLOBS, MIB, TELEGRAM_UPLOAD_MAX_BYTES, type VoiceSettings } from "../media/index.js";

const LANGUAGE = /^[a-z]{2,3}$/;
const MAX_UPLOAD_MB = TELEGRAM_UPLOAD_MAX_BYTES / MIB;

const ALLOWED_TYPE = /^(\*|\*\/\*|[a-z0-9.+-]+\/(\*|[a-z0-9.+-]+)|\.[A-Za-z0-9_.+-]+)$/i;

export const filesSchema = z
  .strictObject(
    {
      uploads_dir: z.string({ error: STRING }).min(1, { error: "must not be empty" }).default(".telecode/uploads"),
      max_file_mb: wholeNumberIn("MB", 1, 2000).default(20),
      max_message_mb: wholeNumberIn("MB", 1, 4000).default(50),
      allowed_types: z
        .array(
          z.string({ error: STRING }).regex(ALLOWED_TYPE, {
            error: 'must be "*", a MIME type such as "image/*" or "application/pdf", or an extension such as ".log"',
          }),
          { error: "must be a list of strings" },
        )
        .min(1, { error: 'must not be empty (use ["*"] to allow every type)' })
        .default(["*"]),
      deny_globs: z
        .array(z.string({ error: STRING }).min(1, { error: "must not hold an empty glob" }), {
          error: "must be a list of strings",
        })
        .default([...DEFAULT_DENY_GLOBS]),
      outbox_max_files: wholeNumberIn("files", 0, 50).default(10),
      outbox_max_mb: wholeNumberIn("MB", 1, MAX_UPLOAD_MB).default(MAX_UPLOAD_MB),
    },
    tableError("files"),
  )
  .refine((files) => files.max_message_mb >= files.max_file_mb, {
    error: "must be at least files.max_file_mb",
    path: ["max_message_mb"],
  })
  .prefault({});

export const voiceSchema = z
  .strictObject(
    {
      api_root: z
        .string({ error: STRING })
        .refine((value) => value === "" || isHttpUrl(value), {
          error: 'must be an http(s) URL such as "https://api.openai.com/v1", or "" to leave voice notes off',
        })
        .default(""),
      model: z.string({ error: STRING }).min(1, { error: "must not be empty" }).default("whisper-1"),
      api_key_env: z
        .string({ error: STRING })
        .refine((value) => value === "" || ENV_NAME.test(value), { error: "must be an environment variable name" })
        .default(""),
      language: z
        .string({ error: STRING })
        .refine((value) => value === "" || LANGUAGE.test(value), {
          error: 'must be an ISO-639-1 code such as "en", or "" to let the server detect it',
        })
        .default(""),
      timeout_seconds: wholeNumberIn("seconds", 1, 600).default(60),
    },
    tableError("voice"),
  )
  .prefault({});

export const MEDIA_KNOWN_KEYS = {
  files: Object.keys(filesSchema.unwrap().shape),
  voice: Object.keys(voiceSchema.unwrap().shape),
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
