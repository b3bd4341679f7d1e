import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDirectory } from "../../src/files/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { mountTmpfs, tmpfsMountable } from "../support/tmpfs.js";

const tempDir = useTempDirs("directory");

describe("a directory made with its parents", () => {
  it("is made, mode 0700, and one already there is fine", () => {
    const path = join(tempDir(), "a", "b");
    createDirectory(path);
    createDirectory(path);
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o700);
  });

  it.runIf(tmpfsMountable)("on a read-only file system fails with EROFS, not Node's ENOENT", () => {
    const readOnly = join(tempDir(), "ro");
    mkdirSync(readOnly);
    const unmount = mountTmpfs(readOnly, "64k", { readOnly: true });
    try {
      expect(() => createDirectory(join(readOnly, "telecode"))).toThrow(expect.objectContaining({ code: "EROFS" }));
    } finally {
      unmount();
    }
  });
});
