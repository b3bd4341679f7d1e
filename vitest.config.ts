import { defineConfig } from "vitest/config";

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
    reporters: ["default"],
  },
});
