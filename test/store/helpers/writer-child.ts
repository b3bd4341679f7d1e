// A child process that writes to the store in a loop, one transaction per iteration, and
// reports each commit on stdout ("committed N") so the parent knows what must survive.
// Usage: node --import ./ts-register.js writer-child.ts DATA_DIR WRITER_NAME [ITERATIONS]
import { openStore } from "../../../src/store/index.js";

const [dir, writer, iterationsArg] = process.argv.slice(2);
if (dir === undefined || writer === undefined)
  throw new Error("usage: writer-child.ts DATA_DIR WRITER_NAME [ITERATIONS]");
const iterations = iterationsArg === undefined ? Number.POSITIVE_INFINITY : Number(iterationsArg);

const store = openStore(dir);
process.stdout.write("ready\n");
// Wait for "go" so that two writers started together really do write at the same time.
await new Promise<void>((resolve) => {
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    if (chunk.includes("go")) resolve();
  });
});
process.stdin.destroy();
for (let i = 1; i <= iterations; i++) {
  store.transaction(() => {
    const run = store.runs.start({ runId: `${writer}-${i}`, chatId: 1, project: writer });
    store.runs.finish(run.runId, { state: "completed", costUsd: 0.01 });
    store.usage.add("2030-01-01", 0.01);
    store.offsets.set(i, writer);
  });
  process.stdout.write(`committed ${i}\n`);
}
store.close();
