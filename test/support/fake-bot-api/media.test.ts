// The fake Bot API's files, driven by the real grammY client: what a person sends (photos in
// several sizes, documents, voice notes, audio, albums) arrives as Telegram shapes it, getFile
// and the file URL hand the bytes over (not over 20 MB), and the bot's uploads are kept.
import { Bot, GrammyError, InputFile, type Context } from "grammy";
import type { InputMediaPhoto, Message } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeGifHeader, makePng } from "../../media/samples.js";
import { startFakeBotApi, type FakeBotApi } from "./index.js";

const ALICE = 1001;
const MB = 1024 * 1024;

let tg: FakeBotApi;
let bot: Bot;

beforeEach(async () => {
  tg = await startFakeBotApi({ maxPollWaitMs: 500 });
  tg.addUser({ id: ALICE, firstName: "Alice" });
  bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
});

afterEach(async () => {
  if (bot.isRunning()) await bot.stop();
  await tg.close();
});

/** Starts the bot and collects every message it receives. */
function receive(): Message[] {
  const received: Message[] = [];
  bot.on("message", (ctx: Context) => void received.push(ctx.message!));
  void bot.start();
  return received;
}

async function download(filePath: string, token = tg.token): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${tg.apiRoot}/file/bot${token}/${filePath}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function apiError(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return error as GrammyError;
}

describe("what a person sends", () => {
  it("a photo arrives in its sizes, smallest first, with the caption, and each size downloads", async () => {
    const received = receive();
    const big = makePng(1280, 960);
    const small = makePng(320, 240);
    tg.sendPhoto(
      ALICE,
      [
        { width: 1280, height: 960, content: big },
        { width: 320, height: 240, content: small },
      ],
      { caption: "what is wrong on this page?" },
    );
    await tg.waitFor(() => received.length === 1, { what: "the photo" });
    const message = received[0]!;
    expect(message.caption).toBe("what is wrong on this page?");
    expect(message.photo?.map((size) => [size.width, size.height, size.file_size])).toEqual([
      [320, 240, small.length],
      [1280, 960, big.length],
    ]);
    const file = await bot.api.getFile(message.photo![1]!.file_id);
    expect(file).toMatchObject({ file_size: big.length, file_path: expect.stringMatching(/^photos\/file_\d+\.jpg$/) });
    expect((await download(file.file_path!)).bytes.equals(big)).toBe(true);
  });

  it("a document keeps its name and type; a voice note and an audio file arrive as Telegram shapes them", async () => {
    const received = receive();
    tg.sendDocument(ALICE, { content: Buffer.from("boom\n"), fileName: "server.log", mimeType: "text/plain" });
    tg.sendVoice(ALICE, { content: Buffer.from("OggS-voice"), durationS: 4 });
    tg.sendAudio(ALICE, { content: Buffer.from("ID3-audio"), durationS: 95, fileName: "memo.mp3", title: "Memo" });
    await tg.waitFor(() => received.length === 3, { what: "three messages" });
    const [document, voice, audio] = received;
    expect(document?.document).toMatchObject({ file_name: "server.log", mime_type: "text/plain", file_size: 5 });
    expect(voice?.voice).toMatchObject({ duration: 4, mime_type: "audio/ogg", file_size: 10 });
    expect(audio?.audio).toMatchObject({ duration: 95, mime_type: "audio/mpeg", file_name: "memo.mp3", title: "Memo" });
    const paths = await Promise.all(
      [document!.document!, voice!.voice!, audio!.audio!].map(
        async (f) => (await bot.api.getFile(f.file_id)).file_path,
      ),
    );
    expect(paths).toEqual([
      expect.stringMatching(/^documents\/file_\d+\.log$/),
      expect.stringMatching(/^voice\/file_\d+\.oga$/),
      expect.stringMatching(/^music\/file_\d+\.mp3$/),
    ]);
    expect((await download(paths[1]!)).bytes.toString()).toBe("OggS-voice");
  });

  it("an album is one message per photo sharing a media_group_id, the caption on one", async () => {
    const received = receive();
    const ids = tg.sendMediaGroup(ALICE, [
      { photo: makePng(40, 30) },
      { photo: makePng(30, 40), caption: "compare these" },
      { photo: makePng(50, 50) },
    ]);
    await tg.waitFor(() => received.length === 3, { what: "the album" });
    expect(received.map((m) => m.message_id)).toEqual(ids);
    expect(new Set(received.map((m) => m.media_group_id)).size).toBe(1);
    expect(received[0]!.media_group_id).toMatch(/^\d+$/);
    expect(received.map((m) => m.caption)).toEqual([undefined, "compare these", undefined]);
    expect(received.map((m) => m.photo?.[0]?.width)).toEqual([40, 30, 50]);
  });

  it("refuses getFile for a file over 20 MB, as Telegram does for bots", async () => {
    const received = receive();
    tg.sendDocument(ALICE, {
      content: Buffer.alloc(25 * MB),
      fileName: "dump.bin",
      mimeType: "application/octet-stream",
    });
    await tg.waitFor(() => received.length === 1, { what: "the document" });
    expect(received[0]!.document?.file_size).toBe(25 * MB);
    const refused = await apiError(bot.api.getFile(received[0]!.document!.file_id));
    expect([refused.error_code, refused.description]).toEqual([400, "Bad Request: file is too big"]);
    expect((await apiError(bot.api.getFile("no-such-file"))).description).toBe("Bad Request: invalid file_id");
  });

  it("serves file URLs only with the bot's token and a known path", async () => {
    const received = receive();
    tg.sendDocument(ALICE, { content: Buffer.from("x"), fileName: "a.txt", mimeType: "text/plain" });
    await tg.waitFor(() => received.length === 1, { what: "the document" });
    const { file_path: path } = await bot.api.getFile(received[0]!.document!.file_id);
    expect((await download(path!, "1:wrong")).status).toBe(401);
    expect((await download("documents/file_999.txt")).status).toBe(404);
    expect(tg.calls("file").map((c) => c.ok)).toEqual([false]);
  });
});

describe("what the bot uploads", () => {
  it("sendPhoto keeps the bytes and caption and offers Telegram's smaller sizes; a file_id re-sends it", async () => {
    const png = makePng(1600, 900);
    const sent = await bot.api.sendPhoto(ALICE, new InputFile(png, "chart.png"), { caption: "the chart" });
    expect(sent.photo.map((size) => [size.width, size.height])).toEqual([
      [90, 51],
      [320, 180],
      [800, 450],
      [1280, 720],
      [1600, 900],
    ]);
    const stored = tg.message(ALICE, sent.message_id)!;
    expect(stored.text).toBe("the chart");
    expect(stored.photo?.at(-1)?.content.equals(png)).toBe(true);
    const again = await bot.api.sendPhoto(ALICE, sent.photo.at(-1)!.file_id);
    expect(again.photo.at(-1)?.file_id).toBe(sent.photo.at(-1)?.file_id);
  });

  it("sendPhoto refuses what is not a photo, and sendDocument refuses more than 50 MB", async () => {
    const notImage = await apiError(bot.api.sendPhoto(ALICE, new InputFile(Buffer.from("hello"), "a.png")));
    expect(notImage.description).toBe("Bad Request: IMAGE_PROCESS_FAILED");
    const gif = await apiError(bot.api.sendPhoto(ALICE, new InputFile(makeGifHeader(10, 10), "a.gif")));
    expect(gif.description).toBe("Bad Request: IMAGE_PROCESS_FAILED");
    const thin = await apiError(bot.api.sendPhoto(ALICE, new InputFile(makePng(2100, 100), "thin.png")));
    expect(thin.description).toBe("Bad Request: PHOTO_INVALID_DIMENSIONS");
    const huge = await apiError(bot.api.sendDocument(ALICE, new InputFile(Buffer.alloc(51 * MB), "huge.bin")));
    expect([huge.error_code, huge.description]).toEqual([413, "Request Entity Too Large"]);
    expect(tg.botMessages(ALICE)).toEqual([]);
  });

  it("sendMediaGroup sends an album of uploads with their captions, and refuses a mixed or single one", async () => {
    const first = makePng(20, 10);
    const second = makePng(10, 20);
    const sent: Message[] = await bot.api.sendMediaGroup(ALICE, [
      { type: "photo", media: new InputFile(first, "a.png"), caption: "<b>before</b>", parse_mode: "HTML" },
      { type: "photo", media: new InputFile(second, "b.png"), caption: "after" },
    ]);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.media_group_id).toBe(sent[1]!.media_group_id);
    const stored = sent.map((m) => tg.message(ALICE, m.message_id)!);
    expect(stored.map((m) => [m.text, m.mediaGroupId])).toEqual([
      ["before", sent[0]!.media_group_id],
      ["after", sent[0]!.media_group_id],
    ]);
    expect(stored[0]!.entities).toEqual([{ type: "bold", offset: 0, length: 6 }]);
    expect(stored.map((m) => m.photo!.at(-1)!.content.equals(m === stored[0] ? first : second))).toEqual([true, true]);

    // grammY's types forbid this album; a client in another language could still send it.
    const photoAndDocument = [
      { type: "photo", media: new InputFile(first, "a.png") },
      { type: "document", media: new InputFile(Buffer.from("x"), "x.txt") },
    ] as unknown as InputMediaPhoto[];
    const mixed = await apiError(bot.api.sendMediaGroup(ALICE, photoAndDocument));
    expect(mixed.error_code).toBe(400);
    const single = await apiError(
      bot.api.sendMediaGroup(ALICE, [{ type: "photo", media: new InputFile(first, "a.png") }]),
    );
    expect(single.error_code).toBe(400);
    expect(tg.botMessages(ALICE)).toHaveLength(2);
  });
});
