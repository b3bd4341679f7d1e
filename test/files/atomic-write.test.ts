import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic, writeFileAtomicSync } from "../../src/files/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { fillDisk, mountTmpfs, tmpfsMountable } from "../support/tmpfs.js";

const tempDir = useTempDirs("atomic");

describe("a file written whole or not at all", () => {
  it("replaces the file, mode 0600, and leaves nothing else beside it", async () => {
    const dir = tempDir();
    const path = join(dir, "state.json");
    writeFileSync(path, "old", { mode: 0o644 });
    writeFileAtomicSync(path, "new");
    expect(readFileSync(path, "utf8")).toBe("new");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await writeFileAtomic(path, "newer");
    expect(readFileSync(path, "utf8")).toBe("newer");
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it.runIf(tmpfsMountable)("on a full disk throws, keeps the old file, and leaves no temporary one", async () => {
    const dir = join(tempDir(), "disk");
    mkdirSync(dir);
    const unmount = mountTmpfs(dir, "64k");
    try {
      const path = join(dir, "state.json");
      writeFileSync(path, "old");
      fillDisk(dir);
      const big = "x".repeat(64 * 1024);
      expect(() => writeFileAtomicSync(path, big)).toThrow(expect.objectContaining({ code: "ENOSPC" }));
      await expect(writeFileAtomic(path, big)).rejects.toMatchObject({ code: "ENOSPC" });
      expect(readFileSync(path, "utf8")).toBe("old");
      expect(
        readdirSync(dir)
          .filter((name) => !name.startsWith("filler-"))
          .sort(),
      ).toEqual(["state.json"]);
    } finally {
      unmount();
    }
  });
});
