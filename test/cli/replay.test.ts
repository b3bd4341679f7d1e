import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { listStdoutFixtures, SHARED_CLI_VERSION, SHARED_FIXTURE_DIR } from "../wire/fixtures.js";

function collector(): { stream: Writable; text: () => string } {
  const parts: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(chunk);
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(parts).toString("utf8") };
}

async function replay(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = collector();
  const err = collector();
  const code = await main(["replay", ...argv], { stdout: out.stream, stderr: err.stream, env: {} });
  return { code, stdout: out.text(), stderr: err.text() };
}

const fixture = (file: string) => join(SHARED_FIXTURE_DIR, file);
const temp = mkdtempSync(join(tmpdir(), "telecode-replay-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("telecode replay", () => {
  it("renders a recorded stdout as readable lines", async () => {
    const { code, stdout, stderr } = await replay(fixture("c-control-bash-allow.stdout.jsonl"));
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout.split("\n")).toEqual([
      expect.stringMatching(
        /^● session f47c0b8c-5465-499d-a7ff-4131f85d6311 · claude-opus-5-5 · default mode · \/home\/user\/project/,
      ),
      "── turn 1 ──",
      "▸ $ Bash touch created-by-test.txt && echo made",
      "? approval needed: Bash: touch created-by-test.txt && echo made (Create a marker file) [d96ef4eb-3259-4fcb-8855-d8a75e033ea0]",
      "✓ $ Bash touch created-by-test.txt && echo made — made",
      "Created the marker file.",
      "  tokens 200 in / 40 out · session $0.0016 · context 0%",
      "■ done · 1 step · 243 ms · $0.0016",
      "",
    ]);
  });

  it("says who started each turn the CLI started by itself (cron, wake-up, Monitor)", async () => {
    const turns = async (file: string) =>
      (await replay(fixture(file))).stdout.split("\n").filter((line) => line.startsWith("── turn"));
    expect(await turns("u1-cron-live-fire.stdout.jsonl")).toEqual([
      "── turn 1 ──",
      "── turn 2 (started by a schedule) ──",
      "── turn 3 (started by a schedule) ──",
    ]);
    expect(await turns("u10-interrupt-idle.stdout.jsonl")).toEqual([
      "── turn 1 ──",
      "── turn 2 (started by a schedule) ──",
      "── turn 3 (started by a wake-up Claude asked for) ──",
    ]);
    expect((await turns("u12-monitor.stdout.jsonl")).slice(1)).toEqual([
      "── turn 2 (started by a Monitor event) ──",
      "── turn 3 (started by a Monitor event) ──",
      "── turn 4 (started by a Monitor event) ──",
    ]);
    const json = (await replay("--json", fixture("u5-schedule-wakeup.stdout.jsonl"))).stdout;
    expect(json).toContain(
      '"type":"turn_started","sessionId":"db085438-3f5f-4ac2-8852-1e2eb3266445","turn":2,"origin":"wakeup"',
    );
  });

  it("--json prints the golden events, one JSON object per line", async () => {
    const { code, stdout } = await replay("--json", fixture("d-control-bash-deny.stdout.jsonl"));
    expect(code).toBe(0);
    expect(stdout).toBe(
      readFileSync(
        new URL(`../golden/events/claude-code-${SHARED_CLI_VERSION}/d-control-bash-deny.events.jsonl`, import.meta.url),
        "utf8",
      ),
    );
  });

  it("reads the out lines of a transcript and gives the same events as the stdout recording", async () => {
    for (const name of listStdoutFixtures()) {
      const fromStdout = await replay("--json", fixture(`${name}.stdout.jsonl`));
      const fromTranscript = await replay("--json", fixture(`${name}.transcript.jsonl`));
      expect(fromTranscript.code, name).toBe(0);
      expect(fromTranscript.stdout, name).toBe(fromStdout.stdout);
    }
  });

  it("shows bad lines as warnings, names the types it does not know once at the end, and still exits 0", async () => {
    const file = join(temp, "mixed.stdout.jsonl");
    const good = readFileSync(fixture("a-print-text.stdout.jsonl"), "utf8").split("\n");
    const newer = ['{"type":"no_such_type"}', '{"type":"no_such_type","n":2}', '{"type":"turn_metrics"}'];
    writeFileSync(file, [good[0], "this is not json", ...newer, "\r", ...good.slice(1)].join("\n"));
    const { code, stdout, stderr } = await replay(file);
    expect(code).toBe(0);
    const warnings = stdout.split("\n").filter((line) => line.startsWith("⚠"));
    expect(warnings).toEqual([
      expect.stringContaining("Skipped a line from Claude Code that could not be read: not JSON"),
    ]);
    expect(stdout).toContain("■ done");
    expect(stderr).toBe(
      'telecode replay: left out 3 lines of a type this Telecode does not know ("no_such_type" ×2, "turn_metrics" ×1), ' +
        "as a live session leaves them out of the chat: most likely a newer Claude Code's.\n",
    );
  });

  it("fails with exit 1 and says what it reads for a file that is no recording at all", async () => {
    const file = join(temp, "notes.md");
    writeFileSync(file, "# Notes\n\nSome text, not a recording.\n");
    const { code, stdout, stderr } = await replay(file);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `telecode replay: ${file} is not a Claude Code recording: none of its 2 lines is a stream-json event. ` +
        "Replay reads what `claude -p --output-format stream-json --verbose` prints, or a Telecode transcript.\n",
    );
    // One verdict, not a warning a line.
    expect(stdout).toBe("");
  });

  it("stops reading a long file that is no recording (a binary, say) after its first lines", async () => {
    const file = join(temp, "program.bin");
    writeFileSync(file, Buffer.concat(Array.from({ length: 5000 }, (_, i) => Buffer.from(`\u0000ELF\u0001${i}\n`))));
    const { code, stdout, stderr } = await replay(file);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      new RegExp(
        `^telecode replay: ${file} is not a Claude Code recording: none of its first \\d+ lines is a stream-json event\\.`,
      ),
    );
  });

  it("shows the warnings for lines that are not Claude Code's once one is", async () => {
    const file = join(temp, "noisy.jsonl");
    const init = readFileSync(fixture("c-control-bash-allow.stdout.jsonl"), "utf8").split("\n")[0];
    writeFileSync(file, `warning: something on stderr\n${init}\n`);
    const { code, stdout } = await replay(file);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toContain("Skipped a line from Claude Code that could not be read");
  });

  it("fails with one line and exit 1 for a missing file or a directory", async () => {
    const missing = await replay(join(temp, "nope.jsonl"));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/^telecode replay: cannot read .*nope\.jsonl \(ENOENT: no such file\); [^\n]*\n$/);
    const directory = await replay(temp);
    expect(directory.code).toBe(1);
    expect(directory.stderr.split("\n")).toHaveLength(2);
  });

  it("explains its usage: --help exits 0, a missing FILE or unknown option exits 2", async () => {
    const help = await replay("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: telecode replay FILE [--json]");
    expect((await replay()).code).toBe(2);
    expect((await replay("--bogus", "x")).code).toBe(2);
    expect((await replay("--time-zone", "Mars/Olympus", fixture("a-print-text.stdout.jsonl"))).code).toBe(2);
  });

  it("honours --time-zone for clock times, and gives their year: a replay may be of any year", async () => {
    const { stdout } = await replay("--time-zone", "Asia/Kolkata", fixture("l-rate-limit-warning.stdout.jsonl"));
    expect(stdout).toContain("5h limit 91% used, resets 23:16 on 17 March 2030");
  });

  it("works through the built bin (exit codes reach the shell)", () => {
    const bin = fileURLToPath(new URL("../../bin/telecode.js", import.meta.url));
    const ok = spawnSync(process.execPath, [bin, "replay", fixture("a-print-text.stdout.jsonl")], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain("Hello from the fake API.");
    const missing = spawnSync(process.execPath, [bin, "replay", join(temp, "nope.jsonl")], { encoding: "utf8" });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
  });
});
