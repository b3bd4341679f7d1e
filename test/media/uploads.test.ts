// Saving what a person sent into the project: names that try to escape are kept inside the
// uploads folder, nothing is overwritten, links are not followed, secrets' names and oversize
// files are refused with the limit in the message.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkMessageTotal,
  checkUpload,
  DEFAULT_DENY_GLOBS,
  numberedName,
  refusalText,
  sanitiseFileName,
  saveUpload,
  type UploadLimits,
} from "../../src/media/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { mountTmpfs, tmpfsMountable } from "../support/tmpfs.js";

const tempDir = useTempDirs("uploads");
const MB = 1024 * 1024;
const limits: UploadLimits = {
  maxFileBytes: 20 * MB,
  maxMessageBytes: 50 * MB,
  allowedTypes: ["*"],
  denyGlobs: DEFAULT_DENY_GLOBS,
};

function project(): { root: string; outside: string } {
  const base = tempDir();
  const root = join(base, "project");
  const outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside };
}

async function save(
  root: string,
  name: string,
  content = "data",
  mimeType = "text/plain",
  uploadsDir = ".telecode/uploads",
) {
  return saveUpload({ projectRoot: root, uploadsDir }, { name, mimeType, bytes: Buffer.from(content) }, limits);
}

function savedPath(result: Awaited<ReturnType<typeof save>>): string {
  if (!result.ok) throw new Error(`refused: ${refusalText(result.refusal)}`);
  return result.value.path;
}

describe("names that try to leave the uploads folder", () => {
  it("keeps ../../etc/passwd, absolute names and backslashes inside, as their last part", async () => {
    const { root, outside } = project();
    expect(savedPath(await save(root, "../../etc/passwd"))).toBe(".telecode/uploads/passwd");
    expect(savedPath(await save(root, "/etc/shadow"))).toBe(".telecode/uploads/shadow");
    expect(savedPath(await save(root, "..\\..\\outside\\evil.txt"))).toBe(".telecode/uploads/evil.txt");
    expect(savedPath(await save(root, ".."))).toBe(".telecode/uploads/file");
    expect(readdirSync(outside)).toEqual([]);
    expect(readFileSync(join(root, ".telecode/uploads/passwd"), "utf8")).toBe("data");
  });

  it("replaces NUL, control characters and look-alike slashes, and undoes direction tricks", () => {
    expect(sanitiseFileName("report\0.pdf")).toBe("report_.pdf");
    expect(sanitiseFileName("a\nb\tc.txt")).toBe("a_b_c.txt");
    expect(sanitiseFileName("..／..／etc／passwd")).toBe(".._.._etc_passwd");
    expect(sanitiseFileName("x∕y⁄z")).toBe("x_y_z");
    // "invoice‮fdp.exe" shows as "invoiceexe.pdf" in a right-to-left override.
    expect(sanitiseFileName("invoice\u202efdp.exe")).toBe("invoice_fdp.exe");
    expect(sanitiseFileName("zero\u200bwidth.txt")).toBe("zero_width.txt");
    expect(sanitiseFileName('a<b>c:"d"|e?f*.txt')).toBe("a_b_c__d__e_f_.txt");
    expect(sanitiseFileName("Cafe\u0301.txt")).toBe("Café.txt");
  });

  it("cuts a very long name to 255 bytes and keeps its extension", () => {
    const name = sanitiseFileName(`${"é".repeat(300)}.log`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name.endsWith(".log")).toBe(true);
  });
});

describe("never overwriting, never through a link", () => {
  it("saves name, name_1, name_2 and leaves earlier files as they were", async () => {
    const { root } = project();
    expect(savedPath(await save(root, "report.pdf", "first"))).toBe(".telecode/uploads/report.pdf");
    expect(savedPath(await save(root, "report.pdf", "second"))).toBe(".telecode/uploads/report_1.pdf");
    expect(savedPath(await save(root, "report.pdf", "third"))).toBe(".telecode/uploads/report_2.pdf");
    expect(readFileSync(join(root, ".telecode/uploads/report.pdf"), "utf8")).toBe("first");
  });

  it("saves a file whose name is already 255 bytes three times, shortening the name for the number", async () => {
    const { root } = project();
    for (const sent of [`${"x".repeat(300)}.txt`, `${"ü".repeat(200)}.pdf`]) {
      const saved = [];
      for (const content of ["first", "second", "third"]) saved.push(savedPath(await save(root, sent, content)));
      const names = saved.map((path) => path.split("/").pop()!);
      expect(new Set(names).size).toBe(3);
      expect(names[1]).toMatch(/_1\.(txt|pdf)$/);
      expect(names[2]).toMatch(/_2\.(txt|pdf)$/);
      for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      expect(readFileSync(join(root, saved[0]!), "utf8")).toBe("first");
      expect(readFileSync(join(root, saved[2]!), "utf8")).toBe("third");
    }
  });

  it("numbers a name at the limit by cutting whole characters off its stem and keeping its extension", () => {
    for (const [name, extension] of [
      [`${"a".repeat(251)}.txt`, ".txt"],
      [`${"ü".repeat(125)}.pdf`, ".pdf"],
      [`${"😀".repeat(63)}.md`, ".md"],
    ] as const) {
      expect(sanitiseFileName(name)).toBe(name);
      const tries = [1, 2, 10, 999].map((n) => ({ n, tried: numberedName(name, n) }));
      expect(new Set([name, ...tries.map((t) => t.tried)]).size).toBe(5);
      for (const { n, tried } of tries) {
        expect(Buffer.byteLength(tried)).toBeLessThanOrEqual(255);
        expect(tried.endsWith(`_${n}${extension}`)).toBe(true);
        // Half a character would not survive the trip through UTF-8.
        expect(Buffer.from(tried).toString()).toBe(tried);
      }
    }
  });

  it("does not write through a symbolic link planted in the uploads folder", async () => {
    const { root, outside } = project();
    const uploads = join(root, ".telecode/uploads");
    mkdirSync(uploads, { recursive: true });
    writeFileSync(join(outside, "bashrc"), "original");
    symlinkSync(join(outside, "bashrc"), join(uploads, "notes.txt"));
    symlinkSync(join(outside, "missing"), join(uploads, "notes_1.txt"));
    expect(savedPath(await save(root, "notes.txt", "new content"))).toBe(".telecode/uploads/notes_2.txt");
    expect(readFileSync(join(outside, "bashrc"), "utf8")).toBe("original");
    expect(existsSync(join(outside, "missing"))).toBe(false);
  });

  it("refuses an uploads folder that a link leads out of the project", async () => {
    const { root, outside } = project();
    mkdirSync(join(root, ".telecode"));
    symlinkSync(outside, join(root, ".telecode/uploads"));
    const result = await save(root, "a.txt");
    expect(!result.ok && result.refusal.code).toBe("media.symlink");
    expect(readdirSync(outside)).toEqual([]);
  });

  it("writes a .gitignore in the uploads folder, and an upload named .gitignore does not replace it", async () => {
    const { root } = project();
    expect(savedPath(await save(root, ".gitignore", "!*"))).toBe(".telecode/uploads/.gitignore_1");
    expect(readFileSync(join(root, ".telecode/uploads/.gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(lstatSync(join(root, ".telecode/uploads/.gitignore")).isFile()).toBe(true);
  });

  it("saves to a configured folder outside the project and names it by its full path", async () => {
    const { root, outside } = project();
    const result = await save(root, "a.txt", "data", "text/plain", join(outside, "inbox"));
    expect(savedPath(result)).toBe(join(outside, "inbox", "a.txt"));
  });
});

describe("refusals, each with the limit", () => {
  it("refuses a 25 MB file, saying its size and the 20 MB limit", async () => {
    const { root } = project();
    const declared = checkUpload(
      { name: "dump.bin", mimeType: "application/octet-stream", sizeBytes: 25 * MB },
      limits,
    );
    expect(!declared.ok && refusalText(declared.refusal)).toBe(
      "I did not save dump.bin: it is 25 MB, over the 20 MB limit per file. Compress or split it and send it again.",
    );
    const real = await saveUpload(
      { projectRoot: root, uploadsDir: ".telecode/uploads" },
      { name: "dump.bin", mimeType: "application/octet-stream", bytes: Buffer.alloc(25 * MB) },
      limits,
    );
    expect(!real.ok && real.refusal.code).toBe("media.too_big");
    expect(existsSync(join(root, ".telecode/uploads/dump.bin"))).toBe(false);
  });

  it("refuses names matching the deny globs, in any case", async () => {
    const { root } = project();
    for (const name of [".env", ".env.production", ".ENV", "server.pem", "prod.key", "id_rsa", "id_ed25519.pub"]) {
      const result = await save(root, name);
      expect(!result.ok && result.refusal.code, name).toBe("media.name_denied");
    }
    const env = await save(root, "../.env.local");
    expect(!env.ok && refusalText(env.refusal)).toBe(
      "I did not save .env.local: names matching .env* are refused (files.deny_globs), as they usually hold secrets. Rename the file and send it again.",
    );
    expect(existsSync(join(root, ".telecode/uploads"))).toBe(false);
  });

  it("refuses types outside files.allowed_types and messages over the total", () => {
    const strict = { ...limits, allowedTypes: ["image/*", "application/pdf", ".log"] };
    expect(checkUpload({ name: "a.png", mimeType: "image/png" }, strict).ok).toBe(true);
    expect(checkUpload({ name: "app.LOG", mimeType: "application/octet-stream" }, strict).ok).toBe(true);
    const zip = checkUpload({ name: "a.zip", mimeType: "application/zip" }, strict);
    expect(!zip.ok && zip.refusal.message).toBe(
      "I did not save a.zip: application/zip is not among the allowed types (image/*, application/pdf, .log).",
    );
    const files = Array.from({ length: 3 }, (_, i) => ({
      name: `${i}.jpg`,
      mimeType: "image/jpeg",
      sizeBytes: 18 * MB,
    }));
    const total = checkMessageTotal(files, limits);
    expect(!total.ok && total.refusal.message).toBe(
      "These 3 files are 54 MB together, over the 50 MB limit per message.",
    );
    expect(checkMessageTotal(files.slice(0, 2), limits).ok).toBe(true);
  });
});

describe.runIf(tmpfsMountable)("a full disk", () => {
  it("fails the save saying why, and leaves no part of the file behind", async () => {
    const { root } = project();
    const unmount = mountTmpfs(root, "256k");
    try {
      const error = await save(root, "big.bin", "x".repeat(1024 * 1024)).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({
        code: "media.io_failed",
        message: `Could not write big.bin in ${join(root, ".telecode/uploads")} (ENOSPC: no space left on the device).`,
      });
      expect(readdirSync(join(root, ".telecode/uploads"))).toEqual([".gitignore"]);
    } finally {
      unmount();
    }
  });
});
