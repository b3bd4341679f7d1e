// `telecode doctor`: prints every check as ✓ / ! / ✗ with a fix under each ✗, and exits 1
// when anything must be fixed. The checks themselves live in doctor-checks.ts.
import { redactSecrets } from "../log/index.js";
import { collectDoctorChecks, type CheckResult } from "./doctor-checks.js";
import { parseConfigArgs, type CommandIo } from "./command-io.js";

export const DOCTOR_HELP = `Usage: telecode doctor [--config FILE]

Checks the config, the bot token and the Telegram Bot API, allowed users, projects (and
that git can make their worktrees), the Claude CLI (version and login), the data directory,
whether a Telecode already runs on it, and the database. Prints ✓ for what works, ! for what is worth knowing, ✗ with a fix for
what is wrong; exits 1 if anything is.
`;

const MARK: Readonly<Record<CheckResult["status"], string>> = { ok: "✓", warn: "!", fail: "✗" };

export function formatCheck(check: CheckResult, labelWidth: number): string {
  const indent = " ".repeat(labelWidth + 3);
  const [first = "", ...rest] = check.detail.split("\n");
  const lines = [
    `${MARK[check.status]} ${check.label.padEnd(labelWidth)} ${first}`,
    ...rest.map((line) => `${indent}${line}`),
  ];
  if (check.fix !== undefined) lines.push(`${indent}fix: ${check.fix}`);
  return lines.join("\n");
}

export type DoctorDeps = { cwd?: string; platform?: NodeJS.Platform };

/** Runs `telecode doctor`; returns 0 when nothing is wrong, 1 otherwise, 2 for bad usage. */
export async function runDoctor(argv: string[], io: CommandIo, deps: DoctorDeps = {}): Promise<number> {
  const values = parseConfigArgs(argv, io, { prefix: "telecode doctor", help: DOCTOR_HELP });
  if (typeof values === "number") return values;
  const checks = await collectDoctorChecks({
    configPath: values.config,
    env: io.env,
    cwd: deps.cwd ?? process.cwd(),
    platform: deps.platform ?? process.platform,
  });
  const width = Math.max(...checks.map((c) => c.label.length));
  const secrets = [io.env["TELECODE_BOT_TOKEN"] ?? "", io.env["ANTHROPIC_API_KEY"] ?? ""];
  io.stdout.write(`${redactSecrets(checks.map((c) => formatCheck(c, width)).join("\n"), secrets)}\n`);
  const failures = checks.filter((c) => c.status === "fail").length;
  io.stdout.write(failures === 0 ? "\nAll good.\n" : `\n${failures} problem${failures === 1 ? "" : "s"} to fix.\n`);
  return failures === 0 ? 0 : 1;
}
