import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that spend tens of seconds waiting on the processes they start. Vitest orders files by
 * their last durations when it has them and by size on a fresh clone (CI), where the benchmarks'
 * smoke run, a small file, came last and ran alone for its ~40 s: these start first. So does the
 * file whose cron job waits for the CLI's own clock (the next minute: up to 60 s of waiting).
 */
const LONG_FILES = /\/test\/(bench|e2e|reliability)\/|\/engine-origins\.test\.ts$/;

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
    // Much of a test's time is waiting on the processes it started (the CLI, telecode, the
    // keeper) and on their clocks, so three files at a time fit even a 2-core machine: on ours,
    // ~400 s with three and ~450 s with two (Vitest's default, CPUs - 1, is one).
    maxWorkers: 3,
    // A worker imports the modules its files share once, not once a file: Telecode's modules keep
    // no state of their own (DESIGN.md) and no test patches a global, so nothing leaks from one
    // file to the next. Imports took ~74 s of the files' time before, ~14 s now.
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
    reporters: ["default"],
  },
});
