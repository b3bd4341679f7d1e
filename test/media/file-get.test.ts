// `/file get PATH`: a file of the project, a path outside it, a denied path, a link, and a
// folder as a zip whose contents are checked entry by entry.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { DEFAULT_DENY_GLOBS, readFileForSending, refusalText, type FileGetLimits } from "../../src/media/index.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("file-get");
const limits: FileGetLimits = { denyGlobs: DEFAULT_DENY_GLOBS };

/** A project with a few files, a secret beside it, and links that lead out. */
function project(): string {
  const base = tempDir();
  const root = join(base, "project");
  mkdirSync(join(root, "src/lib"), { recursive: true });
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(base, "secret"), "TOKEN=outside");
  writeFileSync(join(root, "notes.md"), "# Notes\n");
  writeFileSync(join(root, "src/app.ts"), "console.log('app');\n");
  writeFileSync(join(root, "src/lib/util.ts"), "export const x = 1;\n");
  writeFileSync(join(root, "src/.env"), "KEY=inside");
  writeFileSync(join(root, ".git/config"), "[core]\n");
  symlinkSync(join(base, "secret"), join(root, "src/secret-link"));
  symlinkSync(base, join(root, "up"));
  return root;
}

async function refused(root: string, path: string, extra: Partial<FileGetLimits> = {}): Promise<string> {
  const result = await readFileForSending(root, path, { ...limits, ...extra });
  if (result.ok) throw new Error(`expected a refusal for ${path}`);
  return refusalText(result.refusal);
}

describe("/file get", () => {
  it("reads a file by its path relative to the project root", async () => {
    const root = project();
    const result = await readFileForSending(root, "src/app.ts", limits);
    expect(result.ok && { ...result.value, bytes: result.value.bytes.toString() }).toEqual({
      fileName: "app.ts",
      bytes: "console.log('app');\n",
      relativePath: "src/app.ts",
      zipped: false,
      leftOut: [],
    });
    const absolute = await readFileForSending(root, join(root, "notes.md"), limits);
    expect(absolute.ok && absolute.value.relativePath).toBe("notes.md");
  });

  it("refuses ../secret and absolute paths outside the project", async () => {
    const root = project();
    expect(await refused(root, "../secret")).toBe(
      "../secret is outside the project, so I will not send it. Ask for a path inside the project, relative to its root, e.g. /file get src/app.ts.",
    );
    expect(await refused(root, "src/../../secret")).toMatch(/is outside the project/);
    expect(await refused(root, "/etc/passwd")).toMatch(/^\/etc\/passwd is outside the project/);
  });

  it("does not follow symbolic links, to a file or through a folder", async () => {
    const root = project();
    expect(await refused(root, "src/secret-link")).toBe(
      "src/secret-link goes through a symbolic link, and I do not follow links. Ask for the file itself, by its real path inside the project.",
    );
    expect(await refused(root, "up/secret")).toMatch(/goes through a symbolic link/);
  });

  it("refuses denied paths, missing files, an empty path and a NUL", async () => {
    const root = project();
    expect(await refused(root, "src/.env")).toBe(
      "I will not send src/.env: paths matching .env* are refused (files.deny_globs), as they usually hold secrets. Ask for another file, or change files.deny_globs.",
    );
    expect(await refused(root, ".git/config")).toMatch(/paths matching \.git\/\*\* are refused/);
    expect(await refused(root, ".git")).toMatch(/paths matching \.git\/\*\* are refused/);
    expect(await refused(root, "src/nope.ts")).toBe(
      "There is no src/nope.ts in the project. Check the path; it is relative to the project root.",
    );
    expect(await refused(root, "  ")).toMatch(/^Which file should I send\?/);
    expect(await refused(root, "notes.md\0.txt")).toMatch(/^Which file should I send\?/);
  });

  it("zips a folder, leaving out denied paths and links, and lists what it left out", async () => {
    const root = project();
    const result = await readFileForSending(root, "src", limits);
    if (!result.ok) throw new Error(refusalText(result.refusal));
    expect(result.value).toMatchObject({ fileName: "src.zip", relativePath: "src", zipped: true });
    expect(result.value.leftOut).toEqual(["src/.env (files.deny_globs .env*)", "src/secret-link (symbolic link)"]);
    const entries = unzipSync(new Uint8Array(result.value.bytes));
    expect(Object.keys(entries).sort()).toEqual(["src/app.ts", "src/lib/util.ts"]);
    expect(Buffer.from(entries["src/lib/util.ts"]!).toString()).toBe("export const x = 1;\n");
  });

  it("zips the whole project for '.', without .git", async () => {
    const root = project();
    const result = await readFileForSending(root, ".", limits);
    if (!result.ok) throw new Error(refusalText(result.refusal));
    expect(result.value.fileName).toBe("project.zip");
    expect(Object.keys(unzipSync(new Uint8Array(result.value.bytes))).sort()).toEqual([
      "project/notes.md",
      "project/src/app.ts",
      "project/src/lib/util.ts",
    ]);
    expect(result.value.leftOut).toContain(".git (files.deny_globs .git/**)");
  });

  it("refuses a file or a zip over the upload limit, and a folder with too many files", async () => {
    const root = project();
    writeFileSync(join(root, "big.bin"), Buffer.alloc(2048, 7));
    expect(await refused(root, "big.bin", { maxZipBytes: 1024 })).toBe(
      "big.bin is 2 KB; Telegram takes files up to 1 KB from a bot. Compress or split it first, or ask for a smaller file.",
    );
    for (let i = 0; i < 5; i++)
      writeFileSync(join(root, "src/lib", `noise${i}.bin`), Buffer.from(crypto.getRandomValues(new Uint8Array(600))));
    expect(await refused(root, "src", { maxZipBytes: 1024 })).toBe(
      "src is too big to send: its zip grows past 1 KB, Telegram's upload limit. Ask for a smaller folder or single files.",
    );
    expect(await refused(root, "src", { maxFiles: 3 })).toBe(
      "src is too big to send: it holds more than 3 files. Ask for a smaller folder or single files.",
    );
  });
});
