// Lets a plain `node` child process run our TypeScript sources (for the crash and
// concurrency tests, which need real processes): `node --import ./ts-register.js file.ts`.
import { register } from "node:module";

register("./ts-hooks.js", import.meta.url);
