// Spawning the keeper's CLI: in a process group of its own (detached), tagged so what it starts
// can be found, its three pipes the keeper's. A CLI that cannot start says why.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { PROCESS_TAG_VAR } from "../process/index.js";
import { KeeperError } from "./errors.js";
import type { KeeperSpec } from "./keeper-spec.js";

export type CliChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** Starts the spec's CLI tagged `tag`; rejects with `keeper.start_failed` when it cannot start. */
export function spawnCli(spec: KeeperSpec, tag: string): Promise<CliChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(spec.cli.path, spec.cli.args, {
      cwd: spec.cli.cwd,
      env: { ...spec.cli.env, [PROCESS_TAG_VAR]: tag },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        new KeeperError(
          "keeper.start_failed",
          error.code === "ENOENT"
            ? `Claude Code was not found at ${spec.cli.path}; install @anthropic-ai/claude-code or set claude.path.`
            : `Claude Code could not be started (${error.message}); check claude.path and the project directory.`,
          { cause: error, details: { errno: error.code } },
        ),
      );
    });
    child.once("spawn", () => resolve(child));
  });
}
