// `telecode run` at a real terminal (a pseudo-terminal through util-linux `script`), read as the
// screen a person sees: prompts shown once, typing kept apart from the live status, the answer
// once, questions as questions, and rate-limit resets with their date. Built CLI (dist/), real
// Claude Code, fake Messages API.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { runRun } from "../../src/cli/run.js";
import { capturedIo } from "../support/captured-io.js";
import { realClaudePath } from "../support/claude-workspace.js";
import { reply, type FakeReply } from "../support/fake-anthropic/index.js";
import { runInPty } from "../support/pty.js";
import { startRunWorkspace, type RunWorkspace } from "../support/run-workspace.js";
import { telecodeBin } from "../support/telecode-bin.js";

const SPINNER_LINE = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

let current: RunWorkspace | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function setup(replies: FakeReply[], extraEnv: NodeJS.ProcessEnv = {}): Promise<RunWorkspace> {
  current = await startRunWorkspace(replies, extraEnv);
  return current;
}

/** `telecode run PROMPT` at a terminal, asking at the terminal (the default there). */
function runAtTerminal(s: RunWorkspace, prompt: string) {
  return runInPty(["node", telecodeBin, "run", "--cwd", s.cwd, "--config", s.config, prompt], { env: s.env });
}

const count = (lines: readonly string[], text: string): number => lines.filter((l) => l.includes(text)).length;

describe("telecode run at a terminal", () => {
  it("shows an approval once, reads the answer on its own line, leaves no spinner behind, prints the answer once", async () => {
    const s = await setup([
      reply.bash("touch created-by-run.txt && echo made", "Create a marker file"),
      reply.text("Created the marker file."),
    ]);
    const pty = runAtTerminal(s, "Please create a marker file");
    await pty.waitFor("Type a number");
    pty.type("1\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(existsSync(join(s.cwd, "created-by-run.txt"))).toBe(true);
    expect(count(screen, "Allow Bash?")).toBe(1);
    expect(count(screen, "$ touch created-by-run.txt && echo made")).toBe(1);
    expect(screen).toContain("› 1");
    expect(screen.filter((l) => l.startsWith("→ Allowed ("))).toHaveLength(1);
    expect(screen.join("\n")).not.toMatch(/approval needed|allowed by/);
    expect(screen.filter((l) => SPINNER_LINE.test(l))).toEqual([]);
    expect(count(screen, "Created the marker file.")).toBe(1);
    // Steps are tool calls, as in Telegram's "✅ Done · 1 step", not the CLI's model calls.
    expect(screen.filter((l) => /^■ done · 1 step · /.test(l))).toHaveLength(1);
    expect(screen.at(-1)).toBe("Created the marker file.");
  });

  it("Ctrl-D at an approval cancels the run and exits, instead of waiting on the terminal", async () => {
    const s = await setup([reply.bash("touch never-made.txt", "Create a file"), reply.text("never used")]);
    const pty = runAtTerminal(s, "Create a file");
    await pty.waitFor("Type a number");
    pty.type("\x04");
    expect(await pty.exited).toBe(1);
    expect(pty.screen()).toContain("The input ended, so nobody can answer this prompt: cancelling the run.");
    // The prompt's "→ No longer pending" says it; no line with the request's id repeats it.
    expect(pty.screen()).toContain("→ No longer pending");
    expect(pty.screen().join("\n")).not.toContain("approval withdrawn");
    expect(existsSync(join(s.cwd, "never-made.txt"))).toBe(false);
  });

  it("keeps what is typed ahead off the live status line and uses it for the prompt that follows", async () => {
    const s = await setup([
      { ...reply.bash("touch typed-ahead.txt", "Create a file"), delayMs: 1500 },
      reply.text("Done."),
    ]);
    const pty = runAtTerminal(s, "Create a file");
    await pty.waitFor("── turn 1 ──");
    pty.type("1\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(existsSync(join(s.cwd, "typed-ahead.txt"))).toBe(true);
    expect(screen.filter((l) => SPINNER_LINE.test(l))).toEqual([]);
    expect(count(screen, "Allow Bash?")).toBe(1);
    expect(count(screen, "› 1")).toBe(1);
    expect(count(screen, "→ Allowed")).toBe(1);
  });

  it("Ctrl-C still interrupts while the terminal is read key by key", async () => {
    const s = await setup([reply.bash("bash ./slow.sh", "Wait a while")]);
    await writeFile(join(s.cwd, "slow.sh"), "sleep 41.5\necho finished\n");
    const pty = runAtTerminal(s, "Wait a while");
    await pty.waitFor("Type a number");
    pty.type("1\r");
    await pty.waitFor("→ Allowed");
    pty.type("\x03");
    expect(await pty.exited).toBe(130);
    expect(pty.screen()).toContain("^C cancelling… (Ctrl-C again to stop at once)");
    expect(pty.screen().join("\n")).toMatch(/■ interrupted/);
  });

  it("shows AskUserQuestion as the question with its options, and sends the chosen one", async () => {
    const s = await setup([
      reply.tool("AskUserQuestion", {
        questions: [
          {
            question: "Which colour should the button be?",
            header: "Colour",
            multiSelect: false,
            options: [
              { label: "Red", description: "warm and loud" },
              { label: "Blue", description: "calm" },
            ],
          },
        ],
      }),
      reply.text("Blue it is."),
    ]);
    const pty = runAtTerminal(s, "Ask me about the button");
    await pty.waitFor("Type a number");
    pty.type("2\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    const at = screen.indexOf("? Which colour should the button be?");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(screen.slice(at + 1, at + 4)).toEqual([
      "  [1] Red — warm and loud",
      "  [2] Blue — calm",
      "  [3] Type an answer",
    ]);
    expect(screen.filter((l) => l.startsWith("→ Colour: Blue ("))).toHaveLength(1);
    expect(screen.join("\n")).not.toMatch(/AskUserQuestion|approval needed/);
    expect(current?.api.requests()[1]?.toolResults[0]?.text).toContain('"Which colour should the button be?"="Blue"');
    expect(count(screen, "Blue it is.")).toBe(1);
  });
});

describe("telecode run and an MCP server's question", () => {
  it("asks it as a question at the terminal, and the server gets the value chosen", async () => {
    const ask = {
      message: "Which environment?",
      requestedSchema: {
        type: "object",
        properties: { target: { type: "string", enum: ["staging", "production"] } },
        required: ["target"],
      },
    };
    const s = await setup([reply.tool("mcp__ops__deploy", { ask }), reply.text("Deployed to production.")]);
    const server = { command: process.execPath, args: [resolve("test/support/fake-mcp/asking-server.js")] };
    await writeFile(join(s.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { ops: server } }));
    await mkdir(join(s.cwd, ".claude"), { recursive: true });
    await writeFile(join(s.cwd, ".claude/settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
    const pty = runAtTerminal(s, "Deploy it");
    await pty.waitFor("Allow ops · deploy?");
    pty.type("1\r");
    await pty.waitFor("? Which environment?");
    pty.type("2\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    const at = screen.indexOf("? Which environment?");
    expect(screen.slice(at + 1, at + 4)).toEqual(["  [1] staging", "  [2] production", "  [3] Decline"]);
    expect(screen.filter((l) => l.startsWith("→ Sent target: production ("))).toHaveLength(1);
    expect(JSON.parse(current?.api.requests()[1]?.toolResults[0]?.text ?? "null")).toEqual({
      action: "accept",
      content: { target: "production" },
    });
    expect(count(screen, "Deployed to production.")).toBe(1);
  });
});

describe("telecode run and usage limits", () => {
  it("says the date of a limit reset that is not today", async () => {
    const encode = (o: object): string => Buffer.from(JSON.stringify(o)).toString("base64url");
    // Unified rate-limit headers count only for a subscription-style token (fixture l2's README).
    const token = `${encode({ alg: "none", typ: "JWT" })}.${encode({ aud: "claude-gateway", sub: "t" })}.x`;
    const resetsAt = 1_900_000_000;
    const limited = reply.error(429, {
      errorType: "rate_limit_error",
      headers: {
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": String(resetsAt),
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "retry-after": "1",
      },
    });
    const s = await setup([limited, limited], { ANTHROPIC_AUTH_TOKEN: token, CLAUDE_CODE_MAX_RETRIES: "1" });
    delete s.env["ANTHROPIC_API_KEY"];
    await writeFile(s.config, `[claude]\npath = ${JSON.stringify(realClaudePath)}\nuse_api_billing = true\n`);
    const io = capturedIo(s.env);
    const code = await runRun(["--cwd", s.cwd, "--config", s.config, "--approve", "none", "Hello"], io, {
      stdin: new PassThrough(),
      stderrIsTTY: false,
    });
    expect(code).toBe(1);
    // The reset in this machine's zone, as a person reads it: the time, then its day and year.
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const day = new Intl.DateTimeFormat("en-GB", { timeZone: zone, day: "numeric", month: "long", year: "numeric" });
    const time = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    const when = `${time.format(resetsAt * 1000)} on ${day.format(resetsAt * 1000)}`;
    expect(when).toMatch(/^\d\d:\d\d on 1[678] March 2030$/);
    expect(io.err()).toContain(`Rate limited until ${when} (5h limit reached)`);
  });
});
