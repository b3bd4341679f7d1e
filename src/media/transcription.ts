// Voice notes to text through an OpenAI-compatible transcription endpoint (OpenAI, Groq,
// whisper.cpp's server, speaches): POST {api_root}/audio/transcriptions, multipart. One
// timeout per attempt, retries on 5xx and dropped connections; the audio goes nowhere else.
import { setTimeout as delay } from "node:timers/promises";
import { accept, refuse, type MediaResult } from "./errors.js";

/** `[voice]` as the config holds it. */
export type VoiceSettings = Readonly<{
  /** Empty: voice notes are not transcribed. */
  apiRoot: string;
  model: string;
  /** The environment variable that holds the API key; empty for servers that need none. */
  apiKeyEnv: string;
  /** ISO-639-1 code, or empty to let the server detect it. */
  language: string;
  timeoutSeconds: number;
}>;

export type Transcriber = Readonly<{
  /** Where requests go: `${apiRoot}/audio/transcriptions`. */
  endpoint: string;
  model: string;
  apiKey: string | undefined;
  language: string | undefined;
  timeoutMs: number;
  /** Attempts after the first, on 5xx answers and dropped connections (default 2). */
  retries?: number;
  /** Wait before retry n is n × this (default 1000 ms). */
  retryDelayMs?: number;
  fetch?: typeof fetch;
}>;

export type Audio = Readonly<{ bytes: Uint8Array; mimeType: string; durationS?: number | undefined }>;

const NOT_CONFIGURED = "Voice notes are not transcribed here yet.";
const HOW_TO_CONFIGURE =
  "Type the message instead; or, on the computer running Telecode, set [voice] api_root (and api_key_env if the server needs a key) in the config, as docs/configuration.md shows.";

/** The one line a person gets for a voice note when `[voice]` is not set up. */
export const VOICE_NOT_CONFIGURED_HINT = `${NOT_CONFIGURED} ${HOW_TO_CONFIGURE}`;

/** The transcript as echoed back in the chat before it runs as the prompt. */
export function voiceEcho(transcript: string): string {
  return `🎙 ${transcript}`;
}

/** A transcriber from `[voice]` and the environment; refuses when voice is off or the key is missing. */
export function createTranscriber(
  voice: VoiceSettings,
  env: Readonly<Record<string, string | undefined>>,
): MediaResult<Transcriber> {
  if (voice.apiRoot === "") return refuse("voice.not_configured", NOT_CONFIGURED, HOW_TO_CONFIGURE);
  let apiKey: string | undefined;
  if (voice.apiKeyEnv !== "") {
    apiKey = env[voice.apiKeyEnv];
    if (apiKey === undefined || apiKey === "") {
      return refuse(
        "voice.no_api_key",
        `voice.api_key_env names ${voice.apiKeyEnv}, which is not set in Telecode's environment, so I could not transcribe the voice note.`,
        `Set ${voice.apiKeyEnv} where Telecode runs, or clear voice.api_key_env for a server without keys.`,
      );
    }
  }
  return accept({
    endpoint: `${voice.apiRoot.replace(/\/+$/, "")}/audio/transcriptions`,
    model: voice.model,
    apiKey,
    language: voice.language === "" ? undefined : voice.language,
    timeoutMs: voice.timeoutSeconds * 1000,
  });
}

/** The file name the servers expect for a MIME type (OpenAI checks the extension; `.oga` is refused). */
function fileNameFor(mimeType: string): string {
  const type = mimeType.toLowerCase();
  if (type.includes("ogg") || type.includes("opus")) return "voice.ogg";
  if (type.includes("mpeg") || type.includes("mp3")) return "audio.mp3";
  if (type.includes("mp4") || type.includes("m4a") || type.includes("aac")) return "audio.m4a";
  if (type.includes("wav")) return "audio.wav";
  if (type.includes("webm")) return "audio.webm";
  if (type.includes("flac")) return "audio.flac";
  return "voice.ogg";
}

type Attempt = { kind: "text"; text: string } | { kind: "retry"; why: string } | { kind: "fail"; why: string };

/**
 * The text of `audio`. Refusals: `voice.timeout` (one attempt took longer than the timeout),
 * `voice.failed` (an error answer, or 5xx and dropped connections after the retries),
 * `voice.empty` (no words). `signal` cancels (then `voice.failed`). Never throws.
 */
export async function transcribe(
  transcriber: Transcriber,
  audio: Audio,
  options: { signal?: AbortSignal } = {},
): Promise<MediaResult<string>> {
  const retries = transcriber.retries ?? 2;
  const retryDelayMs = transcriber.retryDelayMs ?? 1000;
  let why = "";
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0 && retryDelayMs > 0) {
      try {
        await delay(retryDelayMs * attempt, undefined, options.signal === undefined ? {} : { signal: options.signal });
      } catch {
        break;
      }
    }
    const timeout = AbortSignal.timeout(transcriber.timeoutMs);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
    const outcome = await attemptOnce(transcriber, audio, signal);
    if (outcome.kind === "text") {
      const text = outcome.text.trim();
      if (text === "") {
        return refuse("voice.empty", "The voice note had no words I could make out.", "Try again, or type it.");
      }
      return accept(text);
    }
    if (timeout.aborted) {
      return refuse(
        "voice.timeout",
        `The transcription server did not answer within ${transcriber.timeoutMs / 1000} s.`,
        "Try again later, or raise voice.timeout_seconds.",
      );
    }
    why = outcome.why;
    if (outcome.kind === "fail" || options.signal?.aborted === true) break;
  }
  return refuse(
    "voice.failed",
    `I could not transcribe the voice note: ${why}.`,
    "Check [voice] in the config and that the server is up, or type the message.",
  );
}

async function attemptOnce(transcriber: Transcriber, audio: Audio, signal: AbortSignal): Promise<Attempt> {
  const form = new FormData();
  form.append("file", new Blob([audio.bytes], { type: audio.mimeType }), fileNameFor(audio.mimeType));
  form.append("model", transcriber.model);
  form.append("response_format", "json");
  if (transcriber.language !== undefined) form.append("language", transcriber.language);
  const headers: Record<string, string> = {};
  if (transcriber.apiKey !== undefined) headers["authorization"] = `Bearer ${transcriber.apiKey}`;
  let response: Response;
  try {
    response = await (transcriber.fetch ?? fetch)(transcriber.endpoint, {
      method: "POST",
      body: form,
      headers,
      signal,
    });
  } catch {
    return { kind: "retry", why: "the server could not be reached" };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (response.status >= 500) return { kind: "retry", why: `the server answered ${response.status}` };
  if (!response.ok) {
    const detail = errorMessageOf(body, transcriber.apiKey);
    return { kind: "fail", why: `the server answered ${response.status}${detail === "" ? "" : ` (${detail})`}` };
  }
  const text = (body as { text?: unknown } | undefined)?.text;
  if (typeof text !== "string") return { kind: "fail", why: "the server's answer had no text" };
  return { kind: "text", text };
}

/**
 * The `error.message` of an OpenAI-style error body, cut short, with anything key-like taken
 * out (OpenAI's "Incorrect API key provided: sk-…abcd" repeats part of the key).
 */
function errorMessageOf(body: unknown, apiKey: string | undefined): string {
  const error = (body as { error?: unknown } | undefined)?.error;
  const message = typeof error === "string" ? error : (error as { message?: unknown } | undefined)?.message;
  if (typeof message !== "string") return "";
  const withoutKey = apiKey === undefined || apiKey === "" ? message : message.split(apiKey).join("…");
  return withoutKey
    .replace(/\b(sk|gsk|key)[-_][A-Za-z0-9*_.-]{4,}/g, "…")
    .slice(0, 200)
    .replace(/[.\s]+$/, "");
}
