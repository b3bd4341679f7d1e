// Photos, files and voice notes through the real bridge, as a person sends them from a phone:
// the fake Bot API serves the files, the real CLI carries them to the fake Messages API (whose
// request bodies are asserted), a fake transcription server hears the voice notes; files come
// back with /file get and from the project's outbox.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { reply, type RecordedRequest } from "../support/fake-anthropic/index.js";
import {
  startFakeTranscription,
  transcriptionReply,
  type FakeTranscription,
} from "../support/fake-transcription/index.js";
import { makeLongPdf, makePdf, makePng } from "../media/samples.js";
import {
  isAnswer,
  spawnServe,
  startRig,
  STRANGER_ID,
  type Rig,
  withButton,
  withConfig,
} from "../telegram/bridge/rig.js";

let rig: Rig;
let voice: FakeTranscription;
beforeAll(async () => {
  voice = await startFakeTranscription();
  rig = await startRig({
    toml: ["[voice]", `api_root = "${voice.apiRoot}"`, "timeout_seconds = 2"],
  });
});
afterAll(async () => {
  await rig?.dispose();
  await voice?.close();
});

const MB = 1024 * 1024;

/** The content blocks of the last user message the CLI sent, without its system reminders. */
function userBlocks(request: RecordedRequest | undefined): Record<string, unknown>[] {
  const messages = (request?.body["messages"] ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  const content = last?.content;
  const blocks =
    typeof content === "string" ? [{ type: "text", text: content }] : (content as Record<string, unknown>[]);
  return (blocks ?? []).filter((b) => !(b["type"] === "text" && String(b["text"]).startsWith("<system-reminder>")));
}

const texts = (blocks: Record<string, unknown>[]): string[] =>
  blocks.filter((b) => b["type"] === "text").map((b) => String(b["text"]));

const imageData = (blocks: Record<string, unknown>[]): string[] =>
  blocks.filter((b) => b["type"] === "image").map((b) => String((b["source"] as Record<string, unknown>)["data"]));

describe("photos", () => {
  it("a photo with a caption starts a run whose message holds the image block and the caption", async () => {
    const chat = rig.user(1001);
    rig.script("[photo]", [reply.text("The button is cut off.")]);
    const sizes = [
      { width: 90, height: 60, content: makePng(90, 60) },
      { width: 1280, height: 853, content: makePng(1280, 853) },
      { width: 2560, height: 1706, content: makePng(2560, 1706) },
    ];
    rig.tg.sendPhoto(chat, sizes, { caption: "what is wrong on this page? [photo]" });
    await rig.botMessage(chat, isAnswer("The button is cut off."));
    const blocks = userBlocks(rig.api.requests("[photo]")[0]);
    // The largest size within 2000 pixels a side, bytes unchanged, before the words.
    expect(blocks[0]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: sizes[1]!.content.toString("base64") },
    });
    expect(texts(blocks)[0]).toBe("what is wrong on this page? [photo]\n");
  });

  it("a photo without a caption is sent with 'Here is an image.'", async () => {
    const chat = rig.user(1002);
    rig.script("Here is an image.", [reply.text("A grey rectangle.")]);
    rig.tg.sendPhoto(chat, makePng(40, 30));
    await rig.botMessage(chat, isAnswer("A grey rectangle."));
    const blocks = userBlocks(rig.api.requests("Here is an image.")[0]);
    expect(imageData(blocks)).toHaveLength(1);
    expect(texts(blocks)[0]).toBe("Here is an image.\n");
  });

  it("an album of three photos becomes one message with the three images and the caption of any of them", async () => {
    const chat = rig.user(1003);
    rig.script("[album]", [reply.text("Three screens compared.")]);
    const pngs = [makePng(30, 20), makePng(31, 20), makePng(32, 20)];
    rig.tg.sendMediaGroup(chat, [
      { photo: pngs[0]! },
      { photo: pngs[1]!, caption: "compare these [album]" },
      { photo: pngs[2]! },
    ]);
    await rig.botMessage(chat, isAnswer("Three screens compared."));
    const requests = rig.api.requests("[album]");
    expect(requests).toHaveLength(1);
    const blocks = userBlocks(requests[0]);
    expect(imageData(blocks)).toEqual(pngs.map((png) => png.toString("base64")));
    expect(texts(blocks)[0]).toBe("compare these [album]\n");
    expect(rig.app.store.runs.recent(chat)).toHaveLength(1);
  });

  it("a photo sent while a run works is queued with its image, which the later run gets", async () => {
    const chat = rig.user(1004);
    rig.script("[busy]", [reply.text("First done.", { delayMs: 2500 })]);
    rig.script("[queued-photo]", [reply.text("Seen the queued photo.")]);
    rig.tg.sendText(chat, "Something slow [busy]");
    await rig.botMessage(chat, /Starting|Working/);
    const png = makePng(50, 50);
    rig.tg.sendPhoto(chat, png, { caption: "and this one [queued-photo]" });
    await rig.botMessage(chat, "Queued — will run after the current task");
    await rig.botMessage(chat, isAnswer("Seen the queued photo."));
    expect(imageData(userBlocks(rig.api.requests("[queued-photo]")[0]))).toEqual([png.toString("base64")]);
  });
});

describe("files", () => {
  it("a PDF goes as a document block", async () => {
    const chat = rig.user(1005);
    rig.script("[pdf]", [reply.text("It is a one-page spec.")]);
    const pdf = makePdf("spec");
    rig.tg.sendDocument(
      chat,
      { content: pdf, fileName: "spec.pdf", mimeType: "application/pdf" },
      { caption: "read this [pdf]" },
    );
    await rig.botMessage(chat, isAnswer("It is a one-page spec."));
    expect(userBlocks(rig.api.requests("[pdf]")[0])[0]).toEqual({
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data: pdf.toString("base64") },
      title: "spec.pdf",
    });
  });

  it("a PDF the API refuses: Claude Code leaves it out and goes on, and the run's status says so", async () => {
    const chat = rig.user(1021);
    rig.script("[pdf-refused]", [
      reply.error(400, { message: "A maximum of 100 PDF pages may be provided." }),
      reply.text("Without the PDF I can only guess."),
    ]);
    rig.tg.sendDocument(
      chat,
      { content: makePdf("long"), fileName: "long.pdf", mimeType: "application/pdf" },
      { caption: "summarise this [pdf-refused]" },
    );
    await rig.botMessage(chat, isAnswer("Without the PDF I can only guess."));
    const status = await rig.botMessage(chat, (m) => m.text.startsWith("✅ Done"));
    expect(status.text).toContain(
      "⚠️ The API could not process a PDF in this session (too large, too many pages, or unreadable), so Claude Code left it out and Claude went on without it. Send a smaller one, or only the pages that matter.",
    );
    const [refused, retried] = rig.api.requests("[pdf-refused]");
    expect(userBlocks(refused)[0]).toMatchObject({ type: "document" });
    expect(userBlocks(retried).some((b) => b.type === "document")).toBe(false);
  });

  it("a PDF longer than the API takes whole is saved for Claude to read a range at a time, and the chat says why", async () => {
    const chat = rig.user(1022);
    rig.script("[pdf-long]", [reply.text("Read the chapters that matter.")]);
    rig.tg.sendDocument(
      chat,
      { content: await makeLongPdf(150), fileName: "book.pdf", mimeType: "application/pdf" },
      { caption: "what does chapter 9 say? [pdf-long]" },
    );
    const note = await rig.botMessage(chat, "for Claude to open instead");
    expect(note.text).toBe(
      "book.pdf has 150 pages, and Claude reads at most 100 of a PDF at once. I saved it at .telecode/uploads/book.pdf for Claude to open instead.",
    );
    await rig.botMessage(chat, isAnswer("Read the chapters that matter."));
    const blocks = userBlocks(rig.api.requests("[pdf-long]")[0]);
    expect(blocks.some((b) => b["type"] === "document")).toBe(false);
    expect(texts(blocks).join("")).toMatch(/it is saved in the project at \.telecode\/uploads\/book\.pdf \(/);
  });

  it("a log is saved in the project's uploads folder and the prompt names its path, size and type", async () => {
    const chat = rig.user(1006);
    rig.script("[log]", [reply.text("The error is on line 1.")]);
    rig.tg.sendDocument(
      chat,
      { content: Buffer.from("ERROR boom\n"), fileName: "server.log", mimeType: "text/plain" },
      { caption: "why does it fail? [log]" },
    );
    await rig.botMessage(chat, isAnswer("The error is on line 1."));
    const uploads = join(rig.ws.cwd, ".telecode/uploads");
    expect(readFileSync(join(uploads, "server.log"), "utf8")).toBe("ERROR boom\n");
    expect(readFileSync(join(uploads, ".gitignore"), "utf8")).toContain("*");
    expect(texts(userBlocks(rig.api.requests("[log]")[0])).join("")).toContain(
      "I sent you a file; it is saved in the project at .telecode/uploads/server.log (11 B, text/plain).\n\nwhy does it fail? [log]",
    );
  });

  it("a screen recording and a video note are saved as files the prompt names, not refused", async () => {
    const chat = rig.user(1019);
    rig.script("[video]", [reply.text("The button jumps when the keyboard opens.")]);
    const recording = Buffer.from("fake mp4 bytes");
    rig.tg.sendVideo(
      chat,
      { content: recording, durationS: 12, width: 886, height: 1920, mimeType: "video/quicktime" },
      { caption: "what goes wrong here? [video]" },
    );
    await rig.botMessage(chat, isAnswer("The button jumps when the keyboard opens."));
    const uploads = join(rig.ws.cwd, ".telecode/uploads");
    expect(readFileSync(join(uploads, "video.mov"))).toEqual(recording);
    expect(texts(userBlocks(rig.api.requests("[video]")[0])).join("")).toContain(
      "I sent you a file; it is saved in the project at .telecode/uploads/video.mov (14 B, video/quicktime).\n\nwhat goes wrong here? [video]",
    );

    rig.script("I sent you a file; it is saved in the project at .telecode/uploads/video_note.mp4", [
      reply.text("Seen the note."),
    ]);
    rig.tg.sendVideoNote(chat, { content: Buffer.from("round"), durationS: 5, length: 384 });
    await rig.botMessage(chat, isAnswer("Seen the note."));
    expect(readFileSync(join(uploads, "video_note.mp4"), "utf8")).toBe("round");
  });

  it("a sticker or a location is answered with what kind it cannot read and what it reads; nothing runs", async () => {
    const chat = rig.user(1020);
    const sticker = rig.tg.sendOther(chat, {
      sticker: {
        file_id: "s1",
        file_unique_id: "u1",
        type: "regular",
        width: 512,
        height: 512,
        is_animated: false,
        is_video: false,
        emoji: "👍",
      },
    });
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === sticker)).text).toBe(
      "I can't read stickers. Send the task as text, a photo, a video, a file or a voice note.",
    );
    const location = rig.tg.sendOther(chat, { location: { latitude: 52.37, longitude: 4.89 } });
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === location)).text).toBe(
      "I can't read locations. Send the task as text, a photo, a video, a file or a voice note.",
    );
    expect(rig.app.store.runs.recent(chat)).toEqual([]);
  });

  it("a file named ../../etc/passwd is saved as passwd inside the uploads folder, nowhere else", async () => {
    const chat = rig.user(1007);
    rig.script("[passwd]", [reply.text("Saved safely.")]);
    rig.tg.sendDocument(
      chat,
      { content: Buffer.from("root:x:0:0\n"), fileName: "../../etc/passwd", mimeType: "text/plain" },
      { caption: "keep this [passwd]" },
    );
    await rig.botMessage(chat, isAnswer("Saved safely."));
    expect(readFileSync(join(rig.ws.cwd, ".telecode/uploads/passwd"), "utf8")).toBe("root:x:0:0\n");
    expect(existsSync(join(rig.ws.cwd, "etc"))).toBe(false);
    expect(existsSync(join(rig.ws.root, "etc"))).toBe(false);
    expect(texts(userBlocks(rig.api.requests("[passwd]")[0])).join("")).toContain(".telecode/uploads/passwd (");
  });

  it("a 25 MB file is refused with the limit, and nothing runs", async () => {
    const chat = rig.user(1008);
    const downloads = rig.tg.calls("getFile").length;
    rig.tg.sendDocument(
      chat,
      { content: Buffer.alloc(25 * MB), fileName: "dump.bin", mimeType: "application/octet-stream" },
      { caption: "[too-big]" },
    );
    const refusal = await rig.botMessage(chat, "limit per file");
    expect(refusal.text).toBe(
      "I did not save dump.bin: it is 25 MB, over the 20 MB limit per file. Compress or split it and send it again.",
    );
    expect(rig.tg.calls("getFile")).toHaveLength(downloads);
    expect(rig.api.requests("[too-big]")).toEqual([]);
    expect(rig.app.store.runs.recent(chat)).toEqual([]);
  });

  it("a secret's name is refused, and an image too big for Claude is saved with the reason", async () => {
    const chat = rig.user(1009);
    rig.tg.sendDocument(chat, { content: Buffer.from("KEY=1"), fileName: ".env", mimeType: "text/plain" });
    expect((await rig.botMessage(chat, "files.deny_globs")).text).toMatch(
      /^I did not save \.env: names matching \.env\* are refused/,
    );
    rig.script("[wide]", [reply.text("Opened the wide image.")]);
    rig.tg.sendDocument(
      chat,
      { content: makePng(9000, 10), fileName: "wide.png", mimeType: "image/png" },
      { caption: "look [wide]" },
    );
    const note = await rig.botMessage(chat, "for Claude to open instead");
    expect(note.text).toBe(
      "wide.png is 9000×10 pixels; Claude takes images up to 8000×8000. I saved it at .telecode/uploads/wide.png for Claude to open instead.",
    );
    await rig.botMessage(chat, isAnswer("Opened the wide image."));
    expect(imageData(userBlocks(rig.api.requests("[wide]")[0]))).toEqual([]);
  });
});

const askLayout = reply.tool("AskUserQuestion", {
  questions: [
    {
      question: "Which layout do you mean?",
      header: "Layout",
      multiSelect: false,
      options: [
        { label: "Grid", description: "Cards in a grid" },
        { label: "List", description: "One per row" },
      ],
    },
  ],
});

describe("answers with attachments", () => {
  it("a photo sent as a reply to a question answers it with the caption, the photo saved and named", async () => {
    const chat = rig.user(1010);
    rig.script("[q-photo]", [askLayout, reply.text("Got the sketch.")]);
    rig.tg.sendText(chat, "Redo the layout [q-photo]");
    const question = await rig.botMessage(chat, withButton("Grid"));
    rig.tg.sendPhoto(chat, makePng(20, 20), { caption: "like this sketch", replyTo: question.messageId });
    await rig.botMessage(chat, isAnswer("Got the sketch."));
    const answer = rig.api.requests("[q-photo]")[1]?.toolResults[0]?.text ?? "";
    expect(answer).toContain('"Which layout do you mean?"="like this sketch');
    expect(answer).toContain("I sent you a file; it is saved in the project at .telecode/uploads/photo.png (");
    expect(existsSync(join(rig.ws.cwd, ".telecode/uploads/photo.png"))).toBe(true);
    // The question shows the answer as the person gave it, not the words Claude got. Its edit is
    // paced like any other and may come after the answer.
    const settled = await rig.botMessage(chat, (m) => m.messageId === question.messageId && m.text.includes("📎"));
    expect(settled.text).toContain("Layout: like this sketch 📎 photo.png");
    expect(settled.text).not.toContain("I sent you a file");
  });
});

describe("voice notes", () => {
  it("are transcribed (a 500, then the words), echoed, then run as the prompt", async () => {
    const chat = rig.user(1011);
    voice.script([transcriptionReply.error(500), transcriptionReply.text("add a test for the parser [voice]")]);
    rig.script("[voice]", [reply.text("Test added.")]);
    const ogg = Buffer.from("OggS fake opus frames");
    rig.tg.sendVoice(chat, { content: ogg, durationS: 3 });
    const echo = await rig.botMessage(chat, "🎙");
    expect(echo.text).toBe("🎙 add a test for the parser [voice]");
    await rig.botMessage(chat, isAnswer("Test added."));
    expect(rig.api.requests("[voice]")[0]?.lastPrompt).toContain("add a test for the parser [voice]");
    const heard = voice.requests().slice(-2);
    expect(heard.map((r) => r.answered)).toEqual(["error 500", "text"]);
    expect(heard[1]?.file?.bytes.equals(ogg)).toBe(true);
  });

  it("a voice note sent as a reply to a question answers it with its words", async () => {
    const chat = rig.user(1017);
    voice.script([transcriptionReply.text("the list one")]);
    rig.script("[q-voice]", [askLayout, reply.text("List it is.")]);
    rig.tg.sendText(chat, "Redo the layout [q-voice]");
    const question = await rig.botMessage(chat, withButton("Grid"));
    rig.tg.sendVoice(chat, { content: Buffer.from("OggS"), durationS: 1 }, { replyTo: question.messageId });
    await rig.botMessage(chat, isAnswer("List it is."));
    expect(rig.api.requests("[q-voice]")[1]?.toolResults[0]?.text).toContain(
      '"Which layout do you mean?"="the list one"',
    );
  });

  it("in a group, a reply to a colleague's voice note gives Claude what it says before the words", async () => {
    const person = rig.user(1019);
    const group = -100_219;
    rig.tg.addGroup({ id: group, memberIds: [person, STRANGER_ID] });
    const posted = rig.tg.sendVoice(
      group,
      { content: Buffer.from("OggS colleague"), durationS: 4 },
      { from: STRANGER_ID },
    );
    voice.script([transcriptionReply.text("the login page times out on staging")]);
    rig.script("[heard-colleague]", [reply.text("The session store is down on staging.")]);
    rig.tg.sendText(group, "@telecode_test_bot look into this [heard-colleague]", { from: person, replyTo: posted });
    await rig.botMessage(group, isAnswer("The session store is down on staging."));
    expect(rig.api.requests("[heard-colleague]")[0]?.lastPrompt).toBe(
      "> 🎙 the login page times out on staging\n\nlook into this [heard-colleague]",
    );
    expect(voice.requests().at(-1)?.file?.bytes.equals(Buffer.from("OggS colleague"))).toBe(true);
  });

  it("a voice note a crash caught mid-transcription is transcribed and run after the restart", async () => {
    const chat = rig.user(1018);
    await rig.app.stop();
    const serve = spawnServe(rig);
    await serve.started;
    voice.script([transcriptionReply.hang()]);
    const heardBefore = voice.requests().length;
    rig.tg.sendVoice(chat, { content: Buffer.from("OggS crash"), durationS: 2 });
    await vi.waitFor(() => expect(voice.requests().length).toBe(heardBefore + 1), { timeout: 20_000, interval: 10 });
    serve.child.kill("SIGKILL");
    await serve.exited;

    voice.script([transcriptionReply.text("rename the helper [crash-voice]")]);
    rig.script("[crash-voice]", [reply.text("Renamed.")]);
    await rig.startApp();
    const echo = await rig.botMessage(chat, "🎙");
    expect(echo.text).toBe("🎙 rename the helper [crash-voice]");
    await rig.botMessage(chat, isAnswer("Renamed."));
    expect(rig.api.requests("[crash-voice]")).toHaveLength(1);
    expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("🎙"))).toHaveLength(1);
    await vi.waitFor(() => expect(rig.app.store.inbox.unfinished()).toEqual([]));
  });

  it("a server that does not answer in time is reported with what to do", async () => {
    const chat = rig.user(1012);
    voice.script([transcriptionReply.hang()]);
    rig.tg.sendVoice(chat, { content: Buffer.from("OggS"), durationS: 1 });
    const failure = await rig.botMessage(chat, "did not answer");
    expect(failure.text).toBe(
      "The transcription server did not answer within 2 s. Try again later, or raise voice.timeout_seconds.",
    );
    expect(rig.app.store.runs.recent(chat)).toEqual([]);
  });

  it("without [voice], a one-line hint", async () => {
    const chat = rig.user(1013);
    await withConfig(
      rig,
      (c) => ({ ...c, voice: { ...c.voice, apiRoot: "" } }),
      async () => {
        rig.tg.sendVoice(chat, { content: Buffer.from("OggS"), durationS: 1 });
        const hint = await rig.botMessage(chat, "[voice]");
        expect(hint.text).toBe(
          "Voice notes are not transcribed here yet. Type the message instead; or, on the computer running Telecode, set [voice] api_root (and api_key_env if the server needs a key) in the config, as docs/configuration.md shows.",
        );
        expect(hint.text).not.toContain("\n");
      },
    );
  });
});

describe("files back to the phone", () => {
  it("/file get sends a file, refuses ../secret, and zips a folder", async () => {
    const chat = rig.user(1014);
    const cwd = rig.ws.cwd;
    mkdirSync(join(cwd, "docs"), { recursive: true });
    writeFileSync(join(cwd, "docs/notes.md"), "# Notes\n");
    writeFileSync(join(cwd, "docs/.env"), "KEY=1");
    writeFileSync(join(rig.ws.root, "secret"), "TOKEN=outside");
    rig.tg.sendCommand(chat, "file", "get docs/notes.md");
    const file = await rig.botMessage(chat, (m) => m.document?.fileName === "notes.md");
    expect(file.document?.content.toString()).toBe("# Notes\n");
    rig.tg.sendCommand(chat, "file", "get ../secret");
    expect((await rig.botMessage(chat, "outside the project")).text).toBe(
      "../secret is outside the project, so I will not send it. Ask for a path inside the project, relative to its root, e.g. /file get src/app.ts.",
    );
    rig.tg.sendCommand(chat, "file", "get docs");
    const zip = await rig.botMessage(chat, (m) => m.document?.fileName === "docs.zip");
    expect(Object.keys(unzipSync(new Uint8Array(zip.document!.content)))).toEqual(["docs/notes.md"]);
    expect((await rig.botMessage(chat, "Left out of docs.zip")).text).toContain("docs/.env (files.deny_globs .env*)");
    rig.tg.sendCommand(chat, "file", "");
    await rig.botMessage(chat, "Say which file");
    // A file Telegram refuses (a group that takes no files, one too big) is said, not dropped.
    const refusal = "Bad Request: not enough rights to send documents to the chat";
    rig.tg.injectFault("sendDocument", { kind: "error", code: 400, description: refusal }, { chatId: chat });
    rig.tg.sendCommand(chat, "file", "get docs/notes.md");
    expect((await rig.botMessage(chat, "was refused by Telegram")).text).toBe(
      `notes.md was refused by Telegram (${refusal}).`,
    );
  });

  it("files Claude puts in the outbox come after the answer (images as photos), then move to sent", async () => {
    const chat = rig.user(1015);
    const outbox = join(rig.ws.cwd, ".telecode/outbox");
    const png = makePng(64, 48);
    rig.script("[outbox]", [
      reply.tool("Write", { file_path: join(outbox, "report.md"), content: "# Report\n" }),
      reply.dynamic(() => {
        writeFileSync(join(outbox, "chart.png"), png);
        writeFileSync(join(outbox, ".env"), "KEY=1");
        return reply.text("The report and the chart are in the outbox.");
      }),
    ]);
    rig.tg.sendText(chat, "Write the report [outbox]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    // The file is named within the project, as the person knows it.
    expect(prompt.text).toMatch(/^🔐 Write \.telecode\/outbox\/report\.md\n\nCreates a new file\.\n/);
    // So is the progress message's step, while it waits (its edits are paced; the summary that
    // replaces it once the run is over lists only failed steps).
    const progress = await rig.botMessage(
      chat,
      (m) => m.messageId === prompt.replyToMessageId && m.text.includes("✎ Write"),
    );
    expect(progress.text).toContain("✎ Write .telecode/outbox/report.md");
    rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    const answer = await rig.botMessage(chat, isAnswer("The report and the chart are in the outbox."));
    const report = await rig.botMessage(chat, (m) => m.document?.fileName === "report.md");
    const chart = await rig.botMessage(chat, (m) => m.photo !== undefined);
    expect(report.messageId).toBeGreaterThan(answer.messageId);
    expect(report.document?.content.toString()).toBe("# Report\n");
    expect(chart.photo?.at(-1)?.content.equals(png)).toBe(true);
    const notice = await rig.botMessage(chat, "Not sent from .telecode/outbox/");
    expect(notice.text).toContain("- .env matches .env* (files.deny_globs)");
    await rig.tg.waitFor(() => existsSync(join(rig.ws.cwd, ".telecode/sent/chart.png")), { what: "the files moved" });
    expect(readFileSync(join(rig.ws.cwd, ".telecode/sent/report.md"), "utf8")).toBe("# Report\n");
    expect(existsSync(join(outbox, "report.md"))).toBe(false);
    const system = JSON.stringify(rig.api.requests("[outbox]")[0]?.body["system"]);
    expect(system).toContain("save it in .telecode/outbox/ in the project");
  });

  it("in a group, the outbox's files and notice quote the request, as its answer there does", async () => {
    const person = rig.user(1015);
    const group = -100_215;
    rig.tg.addGroup({ id: group, memberIds: [person] });
    const outbox = join(rig.ws.cwd, ".telecode/outbox");
    rig.script("[outbox-group]", [
      reply.dynamic(() => {
        mkdirSync(outbox, { recursive: true });
        writeFileSync(join(outbox, "summary.txt"), "all fine\n");
        writeFileSync(join(outbox, ".env.local"), "KEY=1");
        return reply.text("The summary is in the outbox.");
      }),
    ]);
    const asked = rig.tg.sendText(group, "@telecode_test_bot sum it up [outbox-group]", { from: person });
    const answer = await rig.botMessage(group, isAnswer("The summary is in the outbox."));
    const summary = await rig.botMessage(group, (m) => m.document?.fileName === "summary.txt");
    const notice = await rig.botMessage(group, "Not sent from .telecode/outbox/");
    expect([answer, summary, notice].map((m) => m.replyToMessageId)).toEqual([asked, asked, asked]);
  });

  it("an answer over 12,000 characters also comes as answer.md", async () => {
    const chat = rig.user(1016);
    const long = `# Findings\n\n${"All checks passed on this line. ".repeat(420)}`;
    rig.script("[long]", [reply.text(long)]);
    rig.tg.sendText(chat, "Write it all down [long]");
    const document = await rig.botMessage(chat, (m) => m.document?.fileName === "answer.md");
    expect(document.document?.content.toString()).toBe(long);
    expect(document.text).toBe("The whole answer as Markdown.");
  });
});
