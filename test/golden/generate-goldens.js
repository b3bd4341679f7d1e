// Regenerates test/golden/events/NAME.events.jsonl from each recorded fixture's stdout, using
// the built pipeline in dist/ (run `npm run build` first): framer → decoder → translator.
// Usage: node test/golden/generate-goldens.js   — then review every diff by hand.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stdout } from "node:process";
import { fileURLToPath, URL } from "node:url";
import { createTranslator } from "../../dist/claude/translator.js";
import { decodeLine, LineFramer, oversizedLineProblem } from "../../dist/wire/index.js";
import { formatGolden } from "./golden-format.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const fixtures = join(here, "fixtures", "claude-code-2.1.332");
const out = join(here, "events");

for (const file of readdirSync(fixtures)
  .filter((name) => name.endsWith(".stdout.jsonl"))
  .sort()) {
  const name = file.slice(0, -".stdout.jsonl".length);
  const translator = createTranslator();
  const events = [];
  const framer = new LineFramer({
    onLine: (line) => events.push(...translator.push(decodeLine(line))),
    onOversizedLine: (report) => events.push(...translator.push(oversizedLineProblem(report))),
  });
  framer.push(readFileSync(join(fixtures, file)));
  framer.end();
  events.push(...translator.end());
  writeFileSync(join(out, `${name}.events.jsonl`), formatGolden(events));
  stdout.write(`${name}: ${events.length} events\n`);
}
