import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that spend tens of seconds waiting on the processes they start. Vitest orders files by
 * their last durations when it has them and by size on a fresh clone (CI), where the benchmarks'
 * smoke run, a small file, came last and ran alone for its ~40 s: these start first.
 */
const LONG_FILES = /\/test\/(bench|e2e|reliability)\//;

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = (file: TestSpecification): boolean => LONG_FILES.test(file.moduleId);
    return [...sorted.filter(long), ...sorted.filter((file) => !long(file))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most of a test's time is waiting on the processes it started (the CLI, telecode, the
    // keeper), so two files at a time fit even a 2-core machine: ~460 s instead of ~780 s there.
    // Vitest's default would be one (CPUs - 1).
    maxWorkers: 2,
    sequence: { sequencer: LongFilesFirst },
    reporters: ["default"],
  },
});
