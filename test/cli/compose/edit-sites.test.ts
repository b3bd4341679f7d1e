// An Edit's site is read from the file on disk, except from files the chat must not see
// (files.deny_globs), from binary or large files, and from files that are not there.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { editSiteReader } from "../../../src/cli/compose/edit-sites.js";
import type { ApprovalRequest } from "../../../src/domain/index.js";
import { DEFAULT_DENY_GLOBS } from "../../../src/media/index.js";

const dir = mkdtempSync(join(tmpdir(), "telecode-edit-sites-"));
const edit = (file: string, old_string: string): ApprovalRequest => ({
  requestId: "r1",
  toolName: "Edit",
  input: { file_path: join(dir, file), old_string, new_string: "x" },
  permissionSuggestions: [],
});
const read = editSiteReader(DEFAULT_DENY_GLOBS);

describe("reading an Edit's site", () => {
  it("reads the lines around the old text from the file", () => {
    writeFileSync(join(dir, "app.ts"), "a\nb\nc = 1;\nd\ne\n");
    expect(read(edit("app.ts", "1"))).toEqual({ firstLine: 1, before: "a\nb\nc = ", after: ";\nd\ne" });
  });

  it("never reads a file files.deny_globs keeps out of the chat: its other lines may be secrets", () => {
    writeFileSync(join(dir, ".env.local"), "API_KEY=secret\nPORT=3000\nTOKEN=other\n");
    expect(read(edit(".env.local", "PORT=3000"))).toBeUndefined();
    expect(editSiteReader([])(edit(".env.local", "PORT=3000"))).toMatchObject({ before: "API_KEY=secret\n" });
  });

  it("reads nothing from a binary file, one over 2 MiB, a missing one, or a relative path", () => {
    writeFileSync(join(dir, "blob.bin"), Buffer.from([0x61, 0x00, 0x62]));
    expect(read(edit("blob.bin", "a"))).toBeUndefined();
    expect(read(edit("missing.ts", "a"))).toBeUndefined();
    writeFileSync(join(dir, "big.ts"), `${"x".repeat(3 * 1024 * 1024)}\nunique\n`);
    expect(read(edit("big.ts", "unique"))).toBeUndefined();
    expect(read({ ...edit("app.ts", "1"), input: { file_path: "app.ts", old_string: "1", new_string: "x" } })).toBe(
      undefined,
    );
  });
});
