// Kill -9 in the middle of writing must neither corrupt the database nor lose a committed
// transaction; two processes writing at once must both get all their writes in.
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { spawnWriter } from "./helpers/spawn-writer.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("store");

function runsOf(dir: string, writer: string): { ids: Set<string>; allCompleted: boolean } {
  const store = openStore(dir);
  try {
    const runs = store.runs.recent(1, 1_000_000).filter((r) => r.project === writer);
    return { ids: new Set(runs.map((r) => r.runId)), allCompleted: runs.every((r) => r.state === "completed") };
  } finally {
    store.close();
  }
}

describe("store under process crashes and concurrency", () => {
  it("keeps every committed transaction and stays consistent when the writer is SIGKILLed", async () => {
    const dir = tempDir();
    openStore(dir).close();
    const writer = spawnWriter(dir, "killed");
    await writer.ready;
    writer.go();
    await writer.waitForCommitted(40);
    writer.child.kill("SIGKILL");
    const exit = await writer.exited;
    expect(exit.signal).toBe("SIGKILL");
    const reported = writer.lastCommitted();

    const store = openStore(dir);
    try {
      expect(store.integrityCheck()).toBe("ok");
      const { ids, allCompleted } = runsOf(dir, "killed");
      for (let i = 1; i <= reported; i++) expect(ids.has(`killed-${i}`)).toBe(true);
      // Each transaction wrote a run, a usage increment and the offset together: all or none.
      expect(allCompleted).toBe(true);
      expect(store.usage.forDay("2030-01-01").runs).toBe(ids.size);
      expect(store.offsets.get("killed")).toBe(ids.size);
      // The database still takes writes after the crash.
      store.runs.start({ runId: "after-crash", chatId: 1, project: "p" });
      expect(store.runs.get("after-crash")?.state).toBe("running");
    } finally {
      store.close();
    }
  });

  it("lets two processes write at the same time without losing or failing a write", async () => {
    const dir = tempDir();
    openStore(dir).close();
    const iterations = 100;
    const a = spawnWriter(dir, "a", iterations);
    const b = spawnWriter(dir, "b", iterations);
    await Promise.all([a.ready, b.ready]);
    a.go();
    b.go();
    const [exitA, exitB] = await Promise.all([a.exited, b.exited]);
    expect(exitA).toMatchObject({ code: 0 });
    expect(exitB).toMatchObject({ code: 0 });

    expect(runsOf(dir, "a").ids.size).toBe(iterations);
    expect(runsOf(dir, "b").ids.size).toBe(iterations);
    const store = openStore(dir);
    try {
      expect(store.usage.forDay("2030-01-01").runs).toBe(2 * iterations);
      expect(store.offsets.get("a")).toBe(iterations);
      expect(store.offsets.get("b")).toBe(iterations);
      expect(store.integrityCheck()).toBe("ok");
    } finally {
      store.close();
    }
  });
});
