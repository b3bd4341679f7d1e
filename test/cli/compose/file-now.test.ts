// The file an Edit or Write targets is read from disk: missing, or its lines and an Edit's
// site; never a file the chat must not see (files.deny_globs), a binary or large file.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileNowReader } from "../../../src/cli/compose/file-now.js";
import type { ApprovalRequest } from "../../../src/domain/index.js";
import { DEFAULT_DENY_GLOBS } from "../../../src/media/index.js";

const dir = mkdtempSync(join(tmpdir(), "telecode-file-now-"));
const edit = (file: string, old_string: string): ApprovalRequest => ({
  requestId: "r1",
  toolName: "Edit",
  input: { file_path: join(dir, file), old_string, new_string: "x" },
  permissionSuggestions: [],
});
const write = (file: string): ApprovalRequest => ({
  requestId: "r2",
  toolName: "Write",
  input: { file_path: join(dir, file), content: "new" },
  permissionSuggestions: [],
});
const read = fileNowReader(DEFAULT_DENY_GLOBS);

describe("reading the file an Edit or Write targets", () => {
  it("counts its lines, and finds an Edit's old text with the lines around it", () => {
    writeFileSync(join(dir, "app.ts"), "a\nb\nc = 1;\nd\ne\n");
    expect(read(edit("app.ts", "1"))).toEqual({
      exists: true,
      lines: 5,
      editSite: { firstLine: 1, before: "a\nb\nc = ", after: ";\nd\ne" },
    });
    expect(read(write("app.ts"))).toEqual({ exists: true, lines: 5 });
    writeFileSync(join(dir, "last.txt"), "one\ntwo");
    expect(read(write("last.txt"))).toEqual({ exists: true, lines: 2 });
    writeFileSync(join(dir, "empty.txt"), "");
    expect(read(write("empty.txt"))).toEqual({ exists: true, lines: 0 });
  });

  it("says a file that is not there is missing", () => {
    expect(read(write("new.ts"))).toEqual({ exists: false });
  });

  it("never reads a file files.deny_globs keeps out of the chat: its lines may be secrets", () => {
    writeFileSync(join(dir, ".env.local"), "API_KEY=secret\nPORT=3000\nTOKEN=other\n");
    expect(read(edit(".env.local", "PORT=3000"))).toBeUndefined();
    expect(read(write(".env.local"))).toBeUndefined();
    expect(fileNowReader([])(edit(".env.local", "PORT=3000"))).toMatchObject({
      editSite: { before: "API_KEY=secret\n" },
    });
  });

  it("says nothing of a binary file, one over 2 MiB, or a relative path", () => {
    writeFileSync(join(dir, "blob.bin"), Buffer.from([0x61, 0x00, 0x62]));
    expect(read(edit("blob.bin", "a"))).toBeUndefined();
    writeFileSync(join(dir, "big.ts"), `${"x".repeat(3 * 1024 * 1024)}\nunique\n`);
    expect(read(edit("big.ts", "unique"))).toBeUndefined();
    expect(read({ ...write("app.ts"), input: { file_path: "app.ts", content: "x" } })).toBeUndefined();
  });
});
