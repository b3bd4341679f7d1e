// The drift check: event shapes of recordings compared with the pinned fixtures. A doctored
// recording shows each kind of finding; a stand-in `claude` that wraps the real one and prints
// one extra line of a new type makes `npm run drift` name it and exit 1.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listStdoutFixtures, PINNED_CLI_VERSION, SHARED_FIXTURE_DIR } from "../../wire/fixtures.js";
import { realClaudePath } from "../claude-workspace.js";
import { main as drift, shapesOf } from "./drift-command.js";
import { addRecording, compareShapes, emptyShapes, formatDrift, hasDrift } from "./shapes.js";

const scenarioNames = [...new Set(listStdoutFixtures().map((name) => name.split(".")[0] ?? ""))];
const shared = shapesOf(SHARED_FIXTURE_DIR, scenarioNames);

function doctored(edit: (lines: Record<string, unknown>[]) => Record<string, unknown>[]): string {
  const lines = readFileSync(join(SHARED_FIXTURE_DIR, "c-control-bash-allow.stdout.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return edit(lines)
    .map((line) => JSON.stringify(line))
    .join("\n");
}

describe("drift shapes", () => {
  it("finds nothing between the shared fixtures and themselves, and every line decodes", () => {
    const drift = compareShapes(shared, shapesOf(SHARED_FIXTURE_DIR, scenarioNames));
    expect(hasDrift(drift)).toBe(false);
    expect(drift.problems).toEqual([]);
    expect(shared.kinds.has("command_lifecycle/started")).toBe(true);
    expect(shared.kinds.has("control_request/can_use_tool")).toBe(true);
    expect(shared.initTools.has("Bash")).toBe(true);
  });

  it("names a new type, a new field, a changed field type, tools in and out, and what cannot be decoded", () => {
    const next = emptyShapes();
    for (const name of scenarioNames.filter((n) => n !== "c-control-bash-allow"))
      for (const file of listStdoutFixtures().filter((f) => f.split(".")[0] === name))
        addRecording(next, name, readFileSync(join(SHARED_FIXTURE_DIR, `${file}.stdout.jsonl`), "utf8"));
    addRecording(
      next,
      "c-control-bash-allow",
      doctored((lines) => [
        ...lines.map((line) => {
          if (line["type"] === "system" && line["subtype"] === "init")
            return { ...line, tools: [...(line["tools"] as string[]).filter((t) => t !== "Workflow"), "Frobnicate"] };
          if (line["type"] === "result") return { ...line, brand_new_field: "off", num_turns: "2" };
          return line;
        }),
        { type: "brand_new_event", session_id: "s" },
      ]),
    );
    const drift = compareShapes(shared, next);
    const report = formatDrift(drift).join("\n");
    expect(drift.newKinds.map((k) => k.kind)).toEqual(["brand_new_event"]);
    expect(report).toContain("new      brand_new_event  (in c-control-bash-allow)");
    expect(report).toContain("new      result/success brand_new_field: string");
    expect(report).toContain("changed  result/success num_turns: number → number|string");
    expect(report).toContain("new      system/init tools: Frobnicate");
    expect(report).toContain(
      "steps show only the name of Frobnicate: teach describeTool (src/domain/tool-kind.ts) what it acts on",
    );
    expect(report).not.toContain("gone     system/init tools: Workflow"); // other scenarios still list it
    expect(drift.problems).toEqual([
      expect.objectContaining({ scenario: "c-control-bash-allow", reason: 'unknown message type "brand_new_event"' }),
    ]);
    expect(report).toMatch(/UNREADABLE c-control-bash-allow: unknown message type "brand_new_event"/);
  });

  it("reports kinds and fields the new version no longer prints", () => {
    const next = emptyShapes();
    addRecording(
      next,
      "c-control-bash-allow",
      doctored((lines) => lines.filter((l) => l["type"] !== "control_request").map(({ uuid: _uuid, ...rest }) => rest)),
    );
    const drift = compareShapes(shapesOf(SHARED_FIXTURE_DIR, ["c-control-bash-allow"]), next);
    expect(drift.goneKinds).toEqual(["control_request/can_use_tool"]);
    expect(drift.goneFields.map((f) => `${f.kind} ${f.path}`)).toContain("system/init uuid");
  });
});

describe("npm run drift with a stand-in CLI", () => {
  let dir: string;
  let standIn: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "telecode-drift-test-"));
    standIn = join(dir, "claude");
    // The real CLI, with one line of a type Telecode does not know after each system/init.
    writeFileSync(
      standIn,
      `#!/usr/bin/env node
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
const child = spawn(${JSON.stringify(realClaudePath)}, process.argv.slice(2), { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
  process.stdout.write(line + "\\n");
  if (line.includes('"subtype":"init"')) process.stdout.write(JSON.stringify({ type: "brand_new_event", note: "x" }) + "\\n");
});
child.on("close", (code) => process.exit(code ?? 1));
`,
    );
    chmodSync(standIn, 0o755);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function runDrift(cli: string): Promise<{ code: number; report: string }> {
    const printed: string[] = [];
    const code = await drift(["--cli", cli, "--only", "c-control-bash-allow"], {
      print: (line) => printed.push(line),
      log: () => undefined,
    });
    return { code, report: printed.join("\n") };
  }

  it("names the extra type and exits 1 because Telecode cannot decode it", async () => {
    const { code, report } = await runDrift(standIn);
    expect(report).toContain(
      `Drift check: Claude Code ${PINNED_CLI_VERSION} against the ${PINNED_CLI_VERSION} fixtures, 1 scenarios`,
    );
    expect(report).toContain("new      brand_new_event  (in c-control-bash-allow)");
    expect(report).toContain('UNREADABLE c-control-bash-allow: unknown message type "brand_new_event"');
    expect(report).toContain("1 line(s) Telecode cannot decode");
    expect(code).toBe(1);
  });

  it("finds no drift and exits 0 with the pinned CLI itself", async () => {
    const { code, report } = await runDrift(realClaudePath);
    expect(report).toContain("no drift");
    expect(report).toContain("Every line decodes.");
    expect(code).toBe(0);
  });

  it("refuses a --cli that is not the Claude Code CLI, saying what to pass", async () => {
    const logged: string[] = [];
    const code = await drift(["--cli", "/bin/true"], { print: () => undefined, log: (line) => logged.push(line) });
    expect(code).toBe(2);
    expect(logged.join("\n")).toMatch(/printed no version.*is it the Claude Code CLI\?/);
  });
});
