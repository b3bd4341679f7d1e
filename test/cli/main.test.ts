// The command dispatcher: --version from package.json, --help listing every subcommand, help
// for each subcommand, and unknown commands as usage errors. Nothing here starts the bridge.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capturedIo } from "../support/captured-io.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";

const SUBCOMMANDS = ["init", "doctor", "service", "serve", "replay", "run"] as const;

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "telecode-main-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = capturedIo({ HOME: home, PATH: "/nonexistent" });
  const code = await main(argv, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

describe("telecode", () => {
  it("prints the package version for --version and -V", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const result = await run([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${pkg.version}\n`);
    }
  });

  it("lists every subcommand with a summary for --help, -h and help", async () => {
    for (const flag of ["--help", "-h", "help"]) {
      const result = await run([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Usage: telecode [command] [options]");
      for (const name of SUBCOMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    }
  });

  for (const name of SUBCOMMANDS) {
    it(`prints help for \`telecode ${name} --help\` and exits 0`, async () => {
      const result = await run([name, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("");
      expect(result.stdout).toMatch(
        name === "serve" ? /^Usage: telecode \[--config FILE\]/ : new RegExp(`^Usage: telecode ${name}\\b`),
      );
    });
  }

  it("calls an unknown option of doctor and serve a usage error, names it and shows the command's help", async () => {
    for (const [argv, prefix, usage] of [
      [["doctor", "--bogus"], "telecode doctor: ", "Usage: telecode doctor"],
      [["serve", "--bogus"], "telecode: ", "Usage: telecode [--config FILE]"],
    ] as const) {
      const result = await run([...argv]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${prefix}Unknown option '--bogus'`);
      expect(result.stderr).toContain(usage);
      expect(result.stdout).toBe("");
    }
  });

  it("names the option meant by a mistyped one", async () => {
    for (const [argv, said] of [
      [["doctor", "--confg", "x"], "telecode doctor: Unknown option '--confg': did you mean --config?\n"],
      [["run", "--aprove", "none", "hi"], "telecode run: Unknown option '--aprove': did you mean --approve?\n"],
      [
        ["run", "--permission=plan", "hi"],
        "telecode run: Unknown option '--permission': did you mean --permission-mode?\n",
      ],
      [["init", "--bot-tokn", "x"], "telecode init: Unknown option '--bot-tokn': did you mean --bot-token?\n"],
    ] as const) {
      const result = await run([...argv]);
      expect(result.code).toBe(2);
      expect(result.stderr.split("\n")[0] + "\n").toBe(said);
    }
  });

  it("calls an unknown command a usage error and shows the commands", async () => {
    const typo = await run(["doctr"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('telecode: unknown command "doctr"; did you mean `telecode doctor`?');
    const result = await run(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"\n');
    expect(result.stderr).toContain("Usage: telecode [command] [options]");
    expect(result.stdout).toBe("");
  });
});
