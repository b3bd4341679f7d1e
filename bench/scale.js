// How big a benchmark runs. `npm run bench` measures at full size. With TELECODE_BENCH_SMOKE=1
// every benchmark runs end to end at a size that takes seconds (test/bench/smoke.test.ts does so
// in `npm test`), so a change that breaks one is seen the day it lands, not at the next
// measurement; a smoke run's numbers mean nothing and are not to be quoted.
import process from "node:process";

export const smoke = process.env.TELECODE_BENCH_SMOKE === "1";

/** `full` when measuring, `small` in a smoke run. */
export const scaled = (full, small) => (smoke ? small : full);
