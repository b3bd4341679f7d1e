// Temporary directories for tests, removed after each test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** Call at module level; the returned function makes a fresh directory named `telecode-PREFIX-…`. */
export function useTempDirs(prefix = "tmp"): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `telecode-${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}
