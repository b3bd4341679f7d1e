// The voice client against the fake OpenAI-compatible transcription server: what it sends, a
// 500 then a success, a server that hangs, errors that are not retried, and voice left off.
import { afterEach, describe, expect, it } from "vitest";
import {
  createTranscriber,
  refusalText,
  transcribe,
  VOICE_NOT_CONFIGURED_HINT,
  voiceEcho,
  type Transcriber,
  type VoiceSettings,
} from "../../src/media/index.js";
import {
  startFakeTranscription,
  transcriptionReply as say,
  type FakeTranscription,
} from "../support/fake-transcription/index.js";

let server: FakeTranscription | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const voiceNote = { bytes: Buffer.from("OggS fake opus"), mimeType: "audio/ogg", durationS: 3 };

function settings(apiRoot: string, extra: Partial<VoiceSettings> = {}): VoiceSettings {
  return { apiRoot, model: "whisper-1", apiKeyEnv: "", language: "", timeoutSeconds: 30, ...extra };
}

function transcriber(apiRoot: string, extra: Partial<VoiceSettings> = {}, env = {}): Transcriber {
  const made = createTranscriber(settings(apiRoot, extra), env);
  if (!made.ok) throw new Error(refusalText(made.refusal));
  return { ...made.value, retryDelayMs: 0 };
}

describe("transcribe", () => {
  it("posts the audio as multipart with model, language and key, and returns the text", async () => {
    server = await startFakeTranscription([say.text("  run the tests and tell me what fails \n")]);
    const client = transcriber(server.apiRoot, { language: "en", apiKeyEnv: "VOICE_KEY" }, { VOICE_KEY: "sk-test" });
    const result = await transcribe(client, voiceNote);
    expect(result).toEqual({ ok: true, value: "run the tests and tell me what fails" });
    expect(voiceEcho(result.ok ? result.value : "")).toBe("🎙 run the tests and tell me what fails");
    const [request] = server.requests();
    expect(request).toMatchObject({
      path: "/v1/audio/transcriptions",
      authorization: "Bearer sk-test",
      fields: { model: "whisper-1", language: "en", response_format: "json" },
      // OpenAI checks the extension and refuses Telegram's ".oga".
      file: { field: "file", filename: "voice.ogg", mimeType: "audio/ogg" },
    });
    expect(request!.file!.bytes.equals(voiceNote.bytes)).toBe(true);
  });

  it("retries after a 500 and succeeds", async () => {
    server = await startFakeTranscription([say.error(500, "overloaded"), say.text("hello")]);
    expect(await transcribe(transcriber(server.apiRoot), voiceNote)).toEqual({ ok: true, value: "hello" });
    expect(server.requests().map((r) => r.answered)).toEqual(["error 500", "text"]);
  });

  it("gives up after the retries with the status in a clear message", async () => {
    server = await startFakeTranscription([say.error(502), say.error(503), say.error(500)]);
    const result = await transcribe(transcriber(server.apiRoot), voiceNote);
    expect(!result.ok && refusalText(result.refusal)).toBe(
      "I could not transcribe the voice note: the server answered 500. Check [voice] in the config and that the server is up, or type the message.",
    );
    expect(server.requests()).toHaveLength(3);
  });

  it("ends a request the server never answers, and says which timeout to raise", async () => {
    server = await startFakeTranscription([say.hang()]);
    const client = { ...transcriber(server.apiRoot), timeoutMs: 300 };
    const result = await transcribe(client, voiceNote);
    expect(!result.ok && result.refusal.code).toBe("voice.timeout");
    expect(!result.ok && refusalText(result.refusal)).toBe(
      "The transcription server did not answer within 0.3 s. Try again later, or raise voice.timeout_seconds.",
    );
    expect(server.requests()).toHaveLength(1);
  });

  it("does not retry a refusal such as a wrong key, and passes the server's reason on without the key", async () => {
    server = await startFakeTranscription([
      say.error(401, "Incorrect API key provided: sk-live-abc*************wxyz."),
      say.text("never"),
    ]);
    const client = transcriber(server.apiRoot, { apiKeyEnv: "VOICE_KEY" }, { VOICE_KEY: "sk-live-abcdefwxyz" });
    const result = await transcribe(client, voiceNote);
    expect(!result.ok && result.refusal.message).toBe(
      "I could not transcribe the voice note: the server answered 401 (Incorrect API key provided: …).",
    );
    expect(server.requests()).toHaveLength(1);
  });

  it("says so when there were no words, and when the server is not there at all", async () => {
    server = await startFakeTranscription([say.text("   ")]);
    const empty = await transcribe(transcriber(server.apiRoot), voiceNote);
    expect(!empty.ok && empty.refusal.code).toBe("voice.empty");
    const gone = server.apiRoot;
    await server.close();
    server = undefined;
    const unreachable = await transcribe({ ...transcriber(gone), retries: 1 }, voiceNote);
    expect(!unreachable.ok && unreachable.refusal.message).toBe(
      "I could not transcribe the voice note: the server could not be reached.",
    );
  });
});

describe("createTranscriber", () => {
  it("gives the one-line hint when [voice] is not set up", () => {
    const result = createTranscriber(settings(""), {});
    expect(!result.ok && result.refusal.code).toBe("voice.not_configured");
    expect(!result.ok && refusalText(result.refusal)).toBe(VOICE_NOT_CONFIGURED_HINT);
    expect(VOICE_NOT_CONFIGURED_HINT).not.toContain("\n");
  });

  it("names the missing environment variable, never a key", () => {
    const result = createTranscriber(settings("https://api.groq.com/openai/v1", { apiKeyEnv: "GROQ_API_KEY" }), {});
    expect(!result.ok && refusalText(result.refusal)).toBe(
      "voice.api_key_env names GROQ_API_KEY, which is not set in Telecode's environment, so I could not transcribe the voice note. Set GROQ_API_KEY where Telecode runs, or clear voice.api_key_env for a server without keys.",
    );
    const made = createTranscriber(settings("http://127.0.0.1:8080/v1/"), {});
    expect(made.ok && made.value).toMatchObject({
      endpoint: "http://127.0.0.1:8080/v1/audio/transcriptions",
      apiKey: undefined,
      language: undefined,
      timeoutMs: 30_000,
    });
  });
});
