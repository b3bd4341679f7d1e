#!/usr/bin/env node
// Entry point: hands argv to the composition root in dist/ (built by `npm run build`).
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
