// The stream bench/engine, bench/keeper and bench/pipeline replay: every recording of the pinned
// CLI, one after another, from a stand-in process. Telecode's engine must read it to its end
// marker, as the floor and the Agent SDK do: a recording whose line makes the engine end the
// process (a CLI's refusal to start, which only ever comes alone) would end the stream for
// Telecode alone, and the benchmark would wait for it.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allowAllController, createClaudeEngine, type SessionHandle } from "../../src/claude/index.js";
import { buildStreamFile, END, endLine, STAND_IN, standInEnv, writeScript } from "../../bench/stand-in-stream.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("bench-stream");
const handles: SessionHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

describe("the benchmarks' replayed stream", () => {
  it(
    "reaches its end marker through Telecode's engine, every recording's events on the way",
    { timeout: 30_000 },
    async () => {
      const work = tempDir();
      const stream = buildStreamFile(work, 1);
      expect(stream.times).toBe(1);
      const script = writeScript(
        work,
        "once",
        // The benchmark's stream lasts seconds: longer than the engine takes to end a process (2 s).
        [{ awaitIn: { type: "user" } }, { replay: stream.file, times: 1 }, { sleepMs: 3000 }, { out: endLine }],
        { exitOnEof: false },
      );
      const engine = createClaudeEngine({
        claudePath: STAND_IN,
        env: standInEnv(work, script),
        probeCacheFile: join(work, "claude-cli.json"),
      });
      const session = engine.openSession(
        { cwd: work, permissionMode: "default", envAllow: ["FAKE_CLAUDE_SCRIPT"], idleMs: 0 },
        allowAllController(),
      );
      handles.push(session);
      await session.startRun("go");
      let texts = 0;
      let ended = false;
      for await (const event of session.events()) {
        if (event.type !== "text") continue;
        if (event.text === END) {
          ended = true;
          break;
        }
        texts += 1;
      }
      expect(ended).toBe(true);
      expect(texts).toBeGreaterThan(50);
    },
  );
});
