// `telecode` as its own process, from the TypeScript sources (run with the store tests'
// ts-register hook), for restart tests that stop it with a signal or kill it outright.
import { main } from "../../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
