// A CommandIo whose stdout and stderr are collected as text, for tests that run commands.
import { PassThrough } from "node:stream";
import type { CommandIo } from "../../src/cli/command-io.js";

export type CapturedIo = CommandIo & { readonly out: () => string; readonly err: () => string };

export function capturedIo(env: NodeJS.ProcessEnv): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return { stdout, stderr, env, out: () => out, err: () => err };
}
