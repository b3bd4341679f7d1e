#!/usr/bin/env node
// Entry point: hands argv to the composition root, bundled into dist/bundle/ by `npm run build`.
import { main } from "../dist/bundle/main.js";

process.exitCode = await main(process.argv.slice(2));
