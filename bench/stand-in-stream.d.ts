// Types of stand-in-stream.js for the tests that check the benchmarks' stream.
export const FIXTURES: string;
export const STAND_IN: string;
export const END: string;
export const endLine: string;
export function recordedStdout(): string;
export function buildStreamFile(
  work: string,
  minLines: number,
): { file: string; times: number; lines: number; bytes: number };
export function writeScript(work: string, name: string, steps: unknown[], options?: Record<string, unknown>): string;
export function standInEnv(work: string, script: string): Record<string, string | undefined>;
