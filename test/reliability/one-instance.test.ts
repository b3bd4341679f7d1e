// Issue 16, one instance per data directory, with real processes: a second `telecode` on the
// same state dir is refused naming the first one's pid (before it touches runs or polls), doctor
// says who runs, `telecode run` needs no lock, and a SIGKILLed holder leaves the lock free.
// An unusable state.dir is one clear message, not a stack trace.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { instanceState } from "../../src/store/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { useWorld } from "./helpers.js";

const newWorld = useWorld();

describe("one Telecode per data directory", () => {
  it("refuses a second start while the first runs, and allows one once the first is killed", async () => {
    const world = await newWorld([reply.text("Answered while the bridge runs.")]);
    await world.writeConfig();
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    const pid = first.child.pid;

    const second = world.spawnTelecode(["--config", world.configPath]);
    const refused = await Promise.race([second.exited, second.started.then(() => "started" as const)]);
    if (refused === "started") throw new Error("a second telecode started on the same data directory");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `telecode: Another Telecode (pid ${pid}) is already running on ${world.dataDir}. Stop it first, or give this one its own state.dir (or TELECODE_DATA_DIR).`,
    );
    expect(refused.stderr).not.toContain("running as @");
    expect(refused.stderr).not.toMatch(/\n\s+at /);

    const doctor = await world.telecode(["doctor", "--config", world.configPath]);
    expect(doctor.out).toMatch(new RegExp(`✓ instance +Telecode is running on this data directory \\(pid ${pid}\\)`));

    // `telecode run` does not poll Telegram and keeps nothing in the data directory: no lock needed.
    const run = await world.run(["--approve", "none", "Say something"]);
    expect(run.code).toBe(0);
    expect(run.out).toBe("Answered while the bridge runs.\n");

    first.child.kill("SIGKILL");
    await first.exited;
    const after = await world.telecode(["doctor", "--config", world.configPath]);
    expect(after.out).toMatch(/✓ instance +no Telecode is running on this data directory/);
    const third = world.spawnTelecode(["--config", world.configPath]);
    await third.started;
    third.child.kill("SIGTERM");
    expect((await third.exited).code).toBe(0);
  }, 240_000);
});

describe("an unusable state.dir", () => {
  it("is one clear message, the one doctor gives, for a file and for a path under a file", async () => {
    const world = await newWorld();
    const file = join(world.ws.root, "not-a-dir");
    writeFileSync(file, "");
    for (const [dir, detail] of [
      [file, `${file} is not a directory; move that file away`],
      [join(file, "data"), `${join(file, "data")} cannot be created: part of its path is a file; fix the path`],
    ] as const) {
      await world.writeConfig({ extra: [] });
      const env = { ...world.ws.env, TELECODE_DATA_DIR: dir };
      const serve = await world.telecode(["--config", world.configPath], env);
      expect(serve.code).toBe(1);
      expect(serve.err).toBe(
        `telecode: the data directory ${detail}, or set state.dir (or TELECODE_DATA_DIR) to a writable directory.\n`,
      );
      const doctor = await world.telecode(["doctor", "--config", world.configPath], env);
      expect(doctor.out).toContain(`✗ data directory`);
      expect(doctor.out).toContain(detail.split("; ")[0]);
    }
    expect(world.tg.calls("getUpdates")).toEqual([]);
  });

  it("a log directory that cannot be opened is also a clear message", async () => {
    const world = await newWorld();
    await world.writeConfig();
    writeFileSync(join(world.dataDir, "logs"), "");
    const serve = await world.telecode(["--config", world.configPath]);
    expect(serve.code).toBe(1);
    expect(serve.err).toBe(
      `telecode: Could not open the log file in ${join(world.dataDir, "logs")} (EEXIST). Check that the data directory (state.dir) is a writable directory.\n`,
    );
    // The lock was given back, so fixing the directory is all it takes.
    expect(instanceState(world.dataDir)).toEqual({ running: false });
    expect(world.tg.calls()).toEqual([]);
  });
});
