// The outbox after a run: what is sent (images as photos), what is skipped and why, the
// move to .telecode/sent/, and the words Claude and the person read about it.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DENY_GLOBS,
  moveToSent,
  OUTBOX_DIR,
  outboxNotice,
  outboxSystemPrompt,
  planOutbox,
  prepareOutbox,
  readOutboxItem,
  type OutboxLimits,
} from "../../src/media/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { makeGifHeader, makePdf, makePng } from "./samples.js";

const tempDir = useTempDirs("outbox");
const MB = 1024 * 1024;
const limits: OutboxLimits = { maxFiles: 10, maxFileBytes: 50 * MB, denyGlobs: DEFAULT_DENY_GLOBS };

async function projectWithOutbox(): Promise<{ root: string; outbox: string }> {
  const root = tempDir();
  const prepared = await prepareOutbox(root);
  if (!prepared.ok) throw new Error("outbox not prepared");
  return { root, outbox: join(root, OUTBOX_DIR) };
}

describe("prepareOutbox", () => {
  it("makes the outbox with its .gitignore, but never the project's own folder when that is gone", async () => {
    const { outbox } = await projectWithOutbox();
    expect(readFileSync(join(outbox, ".gitignore"), "utf8")).toContain("*");
    const gone = join(tempDir(), "moved-away");
    const refused = await prepareOutbox(gone);
    expect(refused).toEqual({
      ok: false,
      refusal: expect.objectContaining({
        code: "media.project_missing",
        message: `The project's folder ${gone} does not exist, so nothing was saved.`,
      }),
    });
    expect(existsSync(gone)).toBe(false);
  });
});

describe("planOutbox", () => {
  it("sends images as photos and other files as documents, and skips what must not go", async () => {
    const { root, outbox } = await projectWithOutbox();
    writeFileSync(join(outbox, "chart.png"), makePng(800, 400));
    writeFileSync(join(outbox, "report.pdf"), makePdf("report"));
    writeFileSync(join(outbox, "anim.gif"), makeGifHeader(10, 10));
    writeFileSync(join(outbox, "banner.png"), makePng(4200, 100));
    writeFileSync(join(outbox, ".env"), "KEY=1");
    writeFileSync(join(root, "private.txt"), "private");
    symlinkSync(join(root, "private.txt"), join(outbox, "link.txt"));
    mkdirSync(join(outbox, "folder"));
    const plan = await planOutbox(root, limits);
    expect(plan.send.map((item) => [item.name, item.sendAs])).toEqual([
      ["anim.gif", "document"],
      ["banner.png", "document"],
      ["chart.png", "photo"],
      ["report.pdf", "document"],
    ]);
    expect(plan.skipped).toEqual([
      { name: ".env", reason: "matches .env* (files.deny_globs)" },
      { name: "folder", reason: "is not a file (put files, not folders, in the outbox)" },
      { name: "link.txt", reason: "is a symbolic link" },
    ]);
    expect((await readOutboxItem(plan.send[2]!)).equals(makePng(800, 400))).toBe(true);
  });

  it("skips files over the size limit and past the count limit, and says so in one notice", async () => {
    const { root, outbox } = await projectWithOutbox();
    for (const name of ["a.txt", "b.txt", "c.txt"]) writeFileSync(join(outbox, name), name);
    writeFileSync(join(outbox, "big.log"), Buffer.alloc(3 * MB));
    const plan = await planOutbox(root, { ...limits, maxFiles: 2, maxFileBytes: 2 * MB });
    expect(plan.send.map((item) => item.name)).toEqual(["a.txt", "b.txt"]);
    expect(outboxNotice(plan)).toBe(
      "Not sent from .telecode/outbox/ (moved to .telecode/sent/):\n" +
        "- big.log is 3 MB, over 2 MB\n" +
        "- c.txt is past the 2 files sent per run",
    );
    // What the sent folder could not take stays, and is said to; the skipped are then not called moved.
    expect(outboxNotice(plan, { names: ["a.txt", "big.log"], why: "EACCES: permission denied" })).toBe(
      "Not sent from .telecode/outbox/:\n" +
        "- big.log is 3 MB, over 2 MB\n" +
        "- c.txt is past the 2 files sent per run\n\n" +
        "Left in .telecode/outbox/, as .telecode/sent/ could not take them (EACCES: permission denied); they will be sent again after the next answer, until they can be moved or you remove them:\n" +
        "- a.txt\n" +
        "- big.log",
    );
  });

  it("is empty without an outbox, and has no notice when everything went", async () => {
    const plan = await planOutbox(tempDir(), limits);
    expect(plan).toEqual({ send: [], skipped: [] });
    expect(outboxNotice(plan)).toBeUndefined();
  });
});

describe("moveToSent", () => {
  it("moves a file to .telecode/sent/ without overwriting an earlier one, and keeps both out of git", async () => {
    const { root, outbox } = await projectWithOutbox();
    writeFileSync(join(outbox, "report.md"), "first");
    expect(await moveToSent(root, "report.md")).toBe(".telecode/sent/report.md");
    writeFileSync(join(outbox, "report.md"), "second");
    expect(await moveToSent(root, "report.md")).toBe(".telecode/sent/report_1.md");
    expect(readdirSync(outbox)).toEqual([".gitignore"]);
    expect(readFileSync(join(root, ".telecode/sent/report.md"), "utf8")).toBe("first");
    expect(readFileSync(join(root, ".telecode/sent/report_1.md"), "utf8")).toBe("second");
    expect(existsSync(join(root, ".telecode/sent/.gitignore"))).toBe(true);
    expect(readFileSync(join(outbox, ".gitignore"), "utf8")).toMatch(/^\*$/m);
  });
});

describe("outboxSystemPrompt", () => {
  it("tells Claude where to put files and the limits, in one short paragraph", () => {
    const text = outboxSystemPrompt({ maxFiles: 10, maxFileBytes: 50 * MB });
    expect(text).toBe(
      "The person reads you on a phone. To send them a file (a report, a chart, a build), save it in .telecode/outbox/ in the project: after your answer Telecode sends what is there (images as photos; at most 10 files of 50 MB each) and moves it to .telecode/sent/.",
    );
    expect(outboxSystemPrompt({ maxFiles: 3, maxFileBytes: 500 * MB })).toContain("at most 3 files of 50 MB each");
  });
});
