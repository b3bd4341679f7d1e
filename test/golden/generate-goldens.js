// Regenerates the golden event files from each recorded fixture's stdout, using the built
// pipeline in dist/ (run `npm run build` first): framer → decoder → translator.
// Usage: node test/golden/generate-goldens.js [VERSION… | --all]   (default: the pinned version)
// Goldens go to test/golden/events/claude-code-VERSION/. Review every diff by hand afterwards.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process, { stdout } from "node:process";
import { fileURLToPath, URL } from "node:url";
import { createTranslator } from "../../dist/claude/translator.js";
import { decodeLine, LineFramer, oversizedLineProblem } from "../../dist/wire/index.js";
import { formatGolden, goldenDir } from "./golden-format.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = JSON.parse(readFileSync(join(here, "../../package.json"), "utf8"));
const pinned = pkg.devDependencies["@anthropic-ai/claude-code"];
const recorded = readdirSync(join(here, "fixtures"))
  .filter((name) => name.startsWith("claude-code-"))
  .map((name) => name.slice("claude-code-".length));
const args = process.argv.slice(2);
const versions = args.includes("--all") ? recorded : args.length > 0 ? args : [pinned];

for (const version of versions) {
  if (!recorded.includes(version)) {
    process.stderr.write(`No recordings for ${version} in test/golden/fixtures/; record them with npm run fixtures.\n`);
    process.exit(1);
  }
  const fixtures = join(here, "fixtures", `claude-code-${version}`);
  const out = goldenDir(join(here, "events"), version);
  mkdirSync(out, { recursive: true });
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
    stdout.write(`${version}/${name}: ${events.length} events\n`);
  }
}
