// `telecode run` end to end: the command dispatcher, config loading, the engine and the real
// CLI against the fake Messages API, with approvals allowed, denied, events as JSON, Ctrl-C.
import { EventEmitter } from "node:events";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { runRun } from "../../src/cli/run.js";
import { PassThrough } from "node:stream";
import { unattendedMessage } from "../../src/policy/index.js";
import type { TelecodeEvent } from "../../src/domain/index.js";
import { reply, type FakeReply } from "../support/fake-anthropic/index.js";
import { startRunWorkspace, type RunWorkspace } from "../support/run-workspace.js";
import { transcriptHolding, type ClaudeWorkspace } from "../support/claude-workspace.js";
import { listProcesses, processesRunning } from "../support/processes.js";
import { makePng } from "../media/samples.js";

class Capture extends Writable {
  text = "";
  readonly #waiters: { needle: string; resolve: () => void }[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString("utf8");
    for (const w of [...this.#waiters]) {
      if (this.text.includes(w.needle)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve();
      }
    }
    done();
  }
  /** Resolves once the captured text contains `needle`. */
  waitFor(needle: string): Promise<void> {
    if (this.text.includes(needle)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ needle, resolve }));
  }
}

/** Stdout piped into `head -n <lines>`: it takes that many lines, then its reader quits (EPIPE). */
class ClosingPipe extends Writable {
  text = "";
  constructor(readonly lines: number) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (error?: Error) => void): void {
    if (this.text.split("\n").length > this.lines) {
      done(Object.assign(new Error("write EPIPE"), { code: "EPIPE", errno: -32, syscall: "write" }));
      return;
    }
    this.text += chunk.toString("utf8");
    done();
  }
}

let current: RunWorkspace | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function setup(
  replies: FakeReply[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{
  io: { stdout: Capture; stderr: Capture; env: NodeJS.ProcessEnv };
  config: string;
  cwd: string;
  ws: ClaudeWorkspace;
}> {
  current = await startRunWorkspace(replies, extraEnv);
  return {
    io: { stdout: new Capture(), stderr: new Capture(), env: current.env },
    config: current.config,
    cwd: current.cwd,
    ws: current.ws,
  };
}

/**
 * The pid of the Claude Code CLI this process started for the run (Linux: read from /proc); not
 * the `claude --version` and `--help` that probe a CLI seen for the first time beside it, which
 * on a loaded machine may still be running.
 */
function claudeChildPid(): number {
  const cli = listProcesses().find(
    (p) => p.ppid === process.pid && p.argv.some((arg) => arg.includes("claude")) && p.argv.includes("stream-json"),
  );
  if (cli === undefined) throw new Error("no Claude Code CLI among this process's children");
  return cli.pid;
}

const touch = reply.bash("touch created-by-run.txt && echo made", "Create a marker file");

describe("telecode run (real CLI, fake API)", () => {
  it("--approve all: runs the tool, prints the answer on stdout and progress on stderr, exits 0", async () => {
    const { io, config, cwd } = await setup([touch, reply.text("Created the marker file.")]);
    const code = await main(
      ["run", "--cwd", cwd, "--config", config, "--approve", "all", "Please create a marker file"],
      io,
    );
    expect(code).toBe(0);
    expect(io.stdout.text).toBe("Created the marker file.\n");
    expect(existsSync(join(cwd, "created-by-run.txt"))).toBe(true);
    expect(io.stderr.text).toContain("touch created-by-run.txt && echo made");
    // No request id at the end: the line is read by a person, not matched up.
    expect(io.stderr.text).toContain("✓ allowed by approve all\n");
  });

  it("--approve none: denies with a message the model reads, and the run still answers", async () => {
    const { io, config, cwd } = await setup([touch, reply.text("Nobody approved, so I did not create it.")]);
    const code = await main(
      ["run", "--cwd", cwd, "--config", config, "--approve", "none", "Please create a marker file"],
      io,
    );
    expect(code).toBe(0);
    expect(io.stdout.text).toBe("Nobody approved, so I did not create it.\n");
    expect(existsSync(join(cwd, "created-by-run.txt"))).toBe(false);
    expect(current?.api.requests()[1]?.toolResults[0]?.text).toContain(unattendedMessage("Bash"));
    // One line says it and why: the tool's.
    expect(io.stderr.text).toContain(
      "✗ $ Bash touch created-by-run.txt && echo made — not allowed: nobody was watching this run\n",
    );
    expect(io.stderr.text).not.toContain("denied by");
  });

  it("refuses Claude's scheduling tools: no scheduler runs here, and the CLI holds no job", async () => {
    const { io, config, cwd } = await setup([
      reply.tool("ToolSearch", { query: "select:CronCreate,CronList" }),
      reply.tool("CronCreate", { cron: "* * * * *", prompt: "check the build" }),
      reply.tool("CronList", {}),
      reply.text("Could not schedule it here."),
    ]);
    const code = await main(["run", "--cwd", cwd, "--config", config, "--approve", "all", "every minute, check"], io);
    expect(code).toBe(0);
    const results = (current?.api.requests() ?? []).flatMap((r) => r.toolResults.map((t) => t.text));
    expect(results).toContainEqual(
      expect.stringContaining("PreToolUse:CronCreate hook error: This run cannot schedule work"),
    );
    expect(results).toContainEqual(expect.stringContaining("PreToolUse:CronList hook error: There are no loops"));
  });

  it("without a TTY and without --approve, denies what needs a person (none is the default)", async () => {
    const { io, config, cwd } = await setup([touch, reply.text("Nobody approved, so I did not create it.")]);
    const stdin = new PassThrough();
    const code = await runRun(["--cwd", cwd, "--config", config, "Please create a marker file"], io, {
      stdin,
      stderrIsTTY: false,
    });
    expect(code).toBe(0);
    expect(existsSync(join(cwd, "created-by-run.txt"))).toBe(false);
    expect(current?.api.requests()[1]?.toolResults[0]?.text).toContain(unattendedMessage("Bash"));
  });

  it("without PROMPT, reads the prompt from piped stdin; with nothing there, says PROMPT is missing", async () => {
    const { io, config, cwd } = await setup([reply.text("Read it from the pipe.")]);
    const piped = new PassThrough();
    piped.end("Summarise this\nsecond line\n");
    expect(await runRun(["--cwd", cwd, "--config", config], io, { stdin: piped, stderrIsTTY: false })).toBe(0);
    expect(io.stdout.text).toBe("Read it from the pipe.\n");
    expect(current?.api.requests()[0]?.lastPrompt).toBe("Summarise this\nsecond line");

    const empty = new PassThrough();
    empty.end("\n");
    const usage = { ...io, stdout: new Capture(), stderr: new Capture() };
    expect(await runRun(["--cwd", cwd, "--config", config], usage, { stdin: empty, stderrIsTTY: false })).toBe(2);
    expect(usage.stderr.text).toMatch(/^telecode run: missing PROMPT/);
  });

  it("--approve ask: shows the approval with numbered choices and runs the tool when the person types 1", async () => {
    const { io, config, cwd } = await setup([touch, reply.text("Created the marker file.")]);
    const stdin = new PassThrough();
    const exit = runRun(["--cwd", cwd, "--config", config, "--approve", "ask", "Please create a marker file"], io, {
      stdin,
    });
    await io.stderr.waitFor("[1] Allow");
    expect(io.stderr.text).toContain("touch created-by-run.txt && echo made");
    stdin.write("1\n");
    expect(await exit).toBe(0);
    expect(io.stdout.text).toBe("Created the marker file.\n");
    expect(existsSync(join(cwd, "created-by-run.txt"))).toBe(true);
  });

  it("--approve ask: an Edit shows its file, the line it changes and the lines around it", async () => {
    let project = "";
    const file = (): string => join(project, "server.js");
    const { io, config, cwd } = await setup([
      reply.dynamic(() => reply.tool("Read", { file_path: file() })),
      reply.dynamic(() => reply.tool("Edit", { file_path: file(), old_string: "3000", new_string: "8080" })),
      reply.text("Moved to 8080."),
    ]);
    project = cwd;
    writeFileSync(file(), "function main() {\n  const port = 3000;\n  listen(port);\n}\n");
    const stdin = new PassThrough();
    const exit = runRun(["--cwd", cwd, "--config", config, "--approve", "ask", "Move the port"], io, { stdin });
    await io.stderr.waitFor("[1] Allow");
    expect(io.stderr.text).toContain(
      ["server.js · line 2", "    function main() {", "  -   const port = 3000;", "  +   const port = 8080;"].join(
        "\n",
      ),
    );
    stdin.write("1\n");
    expect(await exit).toBe(0);
    expect(readFileSync(file(), "utf8")).toContain("const port = 8080;");
  });

  it("--approve ask: a typed reply denies with the person's words, which the model reads", async () => {
    const { io, config, cwd } = await setup([touch, reply.text("Understood, I will use another name.")]);
    const stdin = new PassThrough();
    const exit = runRun(["--cwd", cwd, "--config", config, "--approve", "ask", "Please create a marker file"], io, {
      stdin,
    });
    await io.stderr.waitFor("[1] Allow");
    stdin.write("no, call it other.txt\n");
    expect(await exit).toBe(0);
    expect(existsSync(join(cwd, "created-by-run.txt"))).toBe(false);
    expect(current?.api.requests()[1]?.toolResults[0]?.text).toContain("no, call it other.txt");
  });

  it("--approve ask: input that ends before a prompt can be answered cancels the run instead of waiting", async () => {
    const { io, config, cwd } = await setup([touch, reply.text("Created the marker file.")]);
    const stdin = new PassThrough();
    stdin.end();
    const code = await runRun(
      ["--cwd", cwd, "--config", config, "--approve", "ask", "Please create a marker file"],
      io,
      {
        stdin,
      },
    );
    expect(code).toBe(1);
    expect(io.stderr.text).toContain("The input ended, so nobody can answer this prompt: cancelling the run.");
    expect(io.stderr.text).toContain("cancelled.");
    expect(existsSync(join(cwd, "created-by-run.txt"))).toBe(false);
  });

  it("plan mode in a terminal: Pause & Outline, the outline held, Approve Plan", async () => {
    const outline = `Outline: ${"read app.js, change the log line to print v2, then run node app.js to check the output. ".repeat(3)}`;
    const { io, config, cwd } = await setup([
      reply.tool("ExitPlanMode", {}, "I have a plan."),
      {
        kind: "message",
        blocks: [
          { type: "text", text: outline },
          { type: "tool_use", name: "ExitPlanMode", input: {} },
        ],
      },
      reply.text("Plan approved; done."),
    ]);
    const stdin = new PassThrough();
    const exit = runRun(
      ["--cwd", cwd, "--config", config, "--approve", "ask", "--permission-mode", "plan", "--json", "Plan a change"],
      io,
      { stdin },
    );
    await io.stderr.waitFor("Pause & Outline");
    stdin.write("3\n");
    await io.stderr.waitFor("Let's discuss");
    stdin.write("Approve Plan\n");
    expect(await exit).toBe(0);
    const events = io.stdout.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as TelecodeEvent);
    // Approving moved the CLI out of plan mode (the re-arm is covered by the decision tests).
    expect(events.flatMap((e) => (e.type === "mode_changed" ? [e.mode] : []))[0]).toBe("default");
    expect(io.stderr.text).toContain("Plan approved");
    expect(events.at(-1)).toMatchObject({ type: "run_completed", ok: true, answer: "Plan approved; done." });
    const results = current?.api.requests().map((r) => r.toolResults[0]?.text ?? "") ?? [];
    expect(results[1]).toContain("step-by-step outline");
    expect(results[2]).toContain("User has approved");
  });

  it("--json prints the events as JSON lines, ending with run_completed", async () => {
    const { io, config, cwd } = await setup([reply.text("Hello in JSON.")]);
    const code = await main(["run", "--cwd", cwd, "--config", config, "--approve", "none", "--json", "Say hello"], io);
    expect(code).toBe(0);
    const events = io.stdout.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as TelecodeEvent);
    expect(events[0]?.type).toBe("session_started");
    expect(events.at(-1)).toMatchObject({ type: "run_completed", ok: true, answer: "Hello in JSON." });
  });

  it("prints Claude's task list as a plan line whenever where it stands changes", async () => {
    const { io, config, cwd } = await setup(
      [
        reply.tool("TaskCreate", { subject: "Read the code", description: "src/" }),
        reply.tool("TaskCreate", { subject: "Run the tests", description: "npm test" }),
        reply.tool("TaskUpdate", { taskId: "1", status: "in_progress" }),
        reply.tool("TaskUpdate", { taskId: "1", status: "completed" }),
        reply.text("Read it."),
      ],
      { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
    );
    // The CLI offers the task list to the models it knows; the fake one gets it through this.
    writeFileSync(config, `${readFileSync(config, "utf8")}env_allow = ["CLAUDE_CODE_ENABLE_TODO_TOOLS"]\n`);
    const code = await main(["run", "--cwd", cwd, "--config", config, "--approve", "none", "Plan it"], io);
    expect(code).toBe(0);
    expect(io.stderr.text.split("\n").filter((l) => l.startsWith("☑"))).toEqual([
      "☑ tasks 0/1 done · next: Read the code",
      "☑ tasks 0/2 done · next: Read the code",
      "☑ tasks 1/2 done · next: Run the tests",
    ]);
    expect(io.stderr.text).toContain("✓ ☑ TaskUpdate Read the code · completed");
  });

  it("exits 1 with the error when the API keeps failing, and 2 on bad usage", async () => {
    const { io, config, cwd } = await setup([reply.error(500), reply.error(500)], { CLAUDE_CODE_MAX_RETRIES: "1" });
    expect(await main(["run", "--cwd", cwd, "--config", config, "--approve", "none", "Hello"], io)).toBe(1);
    expect(io.stdout.text).toBe("");
    // Its duration only: no "0 steps", no "$0.00".
    expect(io.stderr.text).toMatch(/■ failed · [^·\n]+\nerror: API error 500/);
    // Said once, on the last line.
    expect(io.stderr.text.split("fake 500")).toHaveLength(2);
    const usage = { ...io, stderr: new Capture() };
    expect(await main(["run", "--approve", "maybe", "Hello"], usage)).toBe(2);
    expect(usage.stderr.text).toContain("--approve must be ask, all or none");
  });

  it("--image attaches images to the prompt as image blocks; one that cannot go is refused before the run", async () => {
    const { io, config, cwd } = await setup([reply.text("Two grey squares.")]);
    const [first, second] = [makePng(8, 8), makePng(9, 9)];
    await writeFile(join(cwd, "a.png"), first);
    await writeFile(join(cwd, "b.png"), second);
    const args = ["run", "--cwd", cwd, "--config", config, "--approve", "none"];
    const images = ["--image", join(cwd, "a.png"), "--image", join(cwd, "b.png")];
    expect(await main([...args, ...images, "Compare these"], io)).toBe(0);
    expect(io.stdout.text).toBe("Two grey squares.\n");
    const messages = current?.api.requests()[0]?.body["messages"] as { role: string; content: unknown }[];
    const content = messages.filter((m) => m.role === "user").at(-1)?.content as Record<string, unknown>[];
    expect(content.filter((b) => b["type"] === "image").map((b) => b["source"])).toEqual(
      [first, second].map((png) => ({ type: "base64", media_type: "image/png", data: png.toString("base64") })),
    );
    expect(content.some((b) => b["type"] === "text" && String(b["text"]).startsWith("Compare these"))).toBe(true);

    await writeFile(join(cwd, "notes.txt"), "not an image");
    const refused = { ...io, stdout: new Capture(), stderr: new Capture() };
    expect(await main([...args, "--image", join(cwd, "notes.txt"), "Look"], refused)).toBe(2);
    expect(refused.stderr.text).toBe(
      "telecode run: notes.txt is not a PNG, JPEG, GIF or WebP image I can read. Send a PNG, JPEG, GIF or WebP image instead.\n",
    );
    expect(current?.api.requests()).toHaveLength(1);
  });

  it("--continue says when the project has no session to continue, and goes on in the latest one when it has", async () => {
    const { io, config, cwd } = await setup([reply.text("Started afresh."), reply.text("Continued.")]);
    const args = ["run", "--cwd", cwd, "--config", config, "--approve", "none", "--continue"];
    expect(await main([...args, "First words"], io)).toBe(0);
    expect(io.stderr.text).toContain(
      "⚠ There is no earlier Claude Code session in this project to continue, so this message starts a fresh one.\n",
    );
    expect(io.stdout.text).toBe("Started afresh.\n");

    const again = { ...io, stdout: new Capture(), stderr: new Capture() };
    expect(await main([...args, "More words"], again)).toBe(0);
    expect(again.stderr.text).not.toContain("no earlier Claude Code session");
    expect(again.stdout.text).toBe("Continued.\n");
    expect(JSON.stringify(current?.api.requests()[1]?.body["messages"])).toContain("First words");
  });

  it("a CLI killed mid-run: the error names the --resume that goes on in the same session, and it does", async () => {
    const { io, config, cwd, ws } = await setup([reply.bash("bash ./slow.sh", "Wait"), reply.text("Picked up again.")]);
    await writeFile(join(cwd, "slow.sh"), "sleep 42.5\n");
    const exit = main(["run", "--cwd", cwd, "--config", config, "--approve", "all", "Run the slow script"], io);
    await io.stderr.waitFor("✓ allowed by approve all");
    // Killed once it wrote the session down (it writes in batches): there is something to resume.
    await transcriptHolding(ws, "Run the slow script");
    process.kill(claudeChildPid(), "SIGKILL");
    expect(await exit).toBe(1);
    const said = /\nerror: (.*)\n$/.exec(io.stderr.text)?.[1] ?? io.stderr.text;
    // The run was in another directory than this process's: the command names it.
    expect(said).toMatch(
      new RegExp(
        `^Claude Code exited unexpectedly \\(signal SIGKILL\\)\\. To go on in the same session, run: telecode run --cwd ${cwd} --resume [0-9a-f-]{36} PROMPT$`,
      ),
    );
    // Never the phone's "send your message again", which here would start a fresh session.
    expect(said).not.toMatch(/message/i);

    // The command as printed (from this process's directory), with a prompt and this test's config.
    const printed = (/run: telecode (.*) PROMPT$/.exec(said)?.[1] ?? "").split(" ");
    const again = { ...io, stdout: new Capture(), stderr: new Capture() };
    const args = [...printed, "--config", config, "--approve", "none", "go on"];
    expect(await main(args, again)).toBe(0);
    expect(again.stdout.text).toBe("Picked up again.\n");
    // The resumed conversation still holds the first prompt.
    expect(JSON.stringify(current?.api.requests()[1]?.body["messages"])).toContain("Run the slow script");
  });

  it("prints the answer once the run is done, while the CLI still runs its SessionEnd hooks", async () => {
    const { io, config, cwd } = await setup([reply.text("All done.")]);
    // A project hook the CLI waits on as it exits (its budget is the hook's timeout, here 30 s):
    // it goes on until this test lets it.
    const hook = `while [ ! -e ${join(cwd, "release")} ]; do sleep 0.05; done`;
    const hooks = { SessionEnd: [{ hooks: [{ type: "command", command: hook, timeout: 30 }] }] };
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude/settings.json"), JSON.stringify({ hooks }));
    const exit = main(["run", "--cwd", cwd, "--config", config, "--approve", "none", "Finish up"], io);
    await io.stdout.waitFor("All done.\n");
    // The CLI has not exited: it waits on the hook, which waits on this test.
    expect(claudeChildPid()).toBeGreaterThan(0);
    writeFileSync(join(cwd, "release"), "");
    expect(await exit).toBe(0);
    expect(io.stdout.text).toBe("All done.\n");
  });

  it("waits for a SessionEnd hook to the end its timeout allows, as Claude Code does, past the CLI's grace", async () => {
    const { io, config, cwd } = await setup([reply.text("Wrapped up.")]);
    const done = join(cwd, "hook-done");
    const budget = join(cwd, "hook-budget");
    // Longer than the 2 s a CLI gets to exit once its input closed and the 2 s a SIGTERM then
    // gets (which the CLI holds while its hooks run).
    const command = `echo "$CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS" > ${budget}; sleep 4.5 && touch ${done}`;
    const hooks = { SessionEnd: [{ hooks: [{ type: "command", command, timeout: 30 }] }] };
    // A longer budget for the hooks, set the way a person would: Telecode reads it from the hook.
    const env = { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: "90000" };
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude/settings.json"), JSON.stringify({ env, hooks }));
    const warnings: string[] = [];
    const onWarning = (warning: Error): number => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    const code = await main(["run", "--cwd", cwd, "--config", config, "--approve", "none", "Wrap up"], io).finally(() =>
      process.off("warning", onWarning),
    );
    expect(code).toBe(0);
    expect(io.stdout.text).toBe("Wrapped up.\n");
    // The CLI exited once its hook was done: it was not killed under it.
    expect(existsSync(done)).toBe(true);
    // A settings file's `env` reaches the hook's environment (where a wait past 60 s reads it).
    expect(readFileSync(budget, "utf8")).toBe("90000\n");
    // The wait after the answer is said, once.
    const said =
      "Claude Code is running its SessionEnd hooks; telecode run ends when they are done (Ctrl-C cuts them short).\n";
    expect(io.stderr.text.split(said)).toHaveLength(2);
    // Nothing of the wait leaks (a listener a look, which Node warns of past ten).
    expect(warnings).toEqual([]);
  });

  it("what a SessionEnd hook put in the background runs on after the CLI exits; what Claude started does not", async () => {
    const { io, config, cwd } = await setup(
      [reply.bash("nohup sleep 67 >/dev/null 2>&1 &", "Start a sleeper"), reply.text("Started it.")],
      // The server below never answers: the CLI stops waiting for it after a second.
      { MCP_TIMEOUT: "1000" },
    );
    // The way such hooks outlast the CLI's budget for them (1.5 s): the work goes in the background.
    const summary = join(cwd, "summarized");
    const hook = `nohup sh -c 'sleep 0.5; touch ${summary}' >/dev/null 2>&1 &`;
    // Claude Code marks an MCP server's processes as it marks a hook's: one the session started
    // (a server that leaves a child behind) still goes when the CLI does.
    const server = { command: "sh", args: ["-c", "sleep 68.5 & exec sleep 69.5"] };
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { leaky: server } }));
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(
      join(cwd, ".claude/settings.json"),
      JSON.stringify({
        enableAllProjectMcpServers: true,
        hooks: { SessionEnd: [{ hooks: [{ type: "command", command: hook }] }] },
      }),
    );
    const code = await main(["run", "--cwd", cwd, "--config", config, "--approve", "all", "Start a sleeper"], io);
    expect(code).toBe(0);
    expect(io.stdout.text).toBe("Started it.\n");
    // Telecode has ended what the CLI left running by now: the sleeper Claude started is gone,
    // and the hook's work goes on to its end.
    expect(processesRunning(["sleep", "67"])).toEqual([]);
    expect(processesRunning(["sleep", "68.5"])).toEqual([]);
    await vi.waitFor(() => expect(existsSync(summary)).toBe(true), { timeout: 10_000 });
  });

  it("Ctrl-C while the SessionEnd hooks run ends them at once, with what Claude left running", async () => {
    const { io, config, cwd } = await setup([
      reply.bash("nohup sleep 44.5 >/dev/null 2>&1 &", "Start a sleeper"),
      reply.text("Started it."),
    ]);
    const done = join(cwd, "hook-done");
    const hooks = {
      SessionEnd: [{ hooks: [{ type: "command", command: `sleep 43.5 && touch ${done}`, timeout: 60 }] }],
    };
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude/settings.json"), JSON.stringify({ hooks }));
    const signals = new EventEmitter();
    const exit = runRun(["--cwd", cwd, "--config", config, "--approve", "all", "Start a sleeper"], io, { signals });
    await io.stderr.waitFor("Claude Code is running its SessionEnd hooks");
    signals.emit("SIGINT");
    expect(await exit).toBe(130);
    // The answer was out before: what was cut short is the CLI's ending, and it is said.
    expect(io.stdout.text).toBe("Started it.\n");
    expect(io.stderr.text).toMatch(
      /\(Ctrl-C cuts them short\)\.\n\^C Claude Code's SessionEnd hooks were cut short\.\n$/,
    );
    // Nothing goes on without telecode run: not the hook, not what Claude started.
    expect(processesRunning(["sleep", "43.5"])).toEqual([]);
    expect(processesRunning(["sleep", "44.5"])).toEqual([]);
    expect(existsSync(done)).toBe(false);
  });

  it("a second Ctrl-C stops at once: the CLI is not left to wind down", async () => {
    const { io, config, cwd } = await setup([reply.bash("bash ./slow.sh", "Wait")]);
    await writeFile(join(cwd, "slow.sh"), "sleep 45.5\necho finished\n");
    // A CLI that winds down runs its SessionEnd hooks; one ended at once does not.
    const ran = join(cwd, "hook-ran");
    mkdirSync(join(cwd, ".claude"));
    const hooks = { SessionEnd: [{ hooks: [{ type: "command", command: `touch ${ran}` }] }] };
    writeFileSync(join(cwd, ".claude/settings.json"), JSON.stringify({ hooks }));
    const signals = new EventEmitter();
    const exit = runRun(["--cwd", cwd, "--config", config, "--approve", "all", "Run the slow script"], io, {
      signals,
    });
    await io.stderr.waitFor("✓ allowed by approve all");
    signals.emit("SIGINT");
    signals.emit("SIGINT");
    expect(await exit).toBe(130);
    expect(io.stderr.text).toContain("cancelling… (Ctrl-C again to stop at once)");
    expect(io.stderr.text).toMatch(/\^C stopped Claude Code at once\.\n$/);
    expect(processesRunning(["sleep", "45.5"])).toEqual([]);
    expect(existsSync(ran)).toBe(false);
  });

  it("--json into a reader that quits (| head): the run is cancelled, said, and nothing crashes", async () => {
    const { io, config, cwd } = await setup([reply.bash("bash ./slow.sh", "Wait")]);
    await writeFile(join(cwd, "slow.sh"), "sleep 46.5\necho finished\n");
    const stdout = new ClosingPipe(3);
    const code = await main(["run", "--cwd", cwd, "--config", config, "--approve", "all", "--json", "Run it"], {
      ...io,
      stdout,
    });
    expect(code).toBe(1);
    expect(stdout.text.trim().split("\n")).toHaveLength(3);
    expect(io.stderr.text).toMatch(
      /telecode run: the output was closed before the run ended \(its reader quit\), so the run was cancelled\.\n$/,
    );
    expect(io.stderr.text).not.toContain("EPIPE");
    expect(processesRunning(["sleep", "46.5"])).toEqual([]);
  });

  it("an answer into a reader that quits early (| head -n 1) ends the command as a success", async () => {
    const long = Array.from({ length: 5 }, (_, i) => `Line ${i + 1} of the answer.`).join("\n");
    const { io, config, cwd } = await setup([reply.text(long)]);
    const stdout = new ClosingPipe(0);
    const code = await main(["run", "--cwd", cwd, "--config", config, "--approve", "none", "Say it"], {
      ...io,
      stdout,
    });
    expect(code).toBe(0);
    expect(io.stderr.text).toContain("■ done");
    expect(io.stderr.text).not.toContain("EPIPE");
  });

  it.each([
    ["SIGTERM", 143, "`timeout` ran out"],
    ["SIGHUP", 129, "the terminal closed"],
  ])("%s (%s) ends Claude Code with the command", async (signal, exitCode) => {
    const { io, config, cwd } = await setup([reply.bash("bash ./slow.sh", "Wait")]);
    await writeFile(join(cwd, "slow.sh"), `sleep ${exitCode}.5\necho finished\n`);
    const signals = new EventEmitter();
    const exit = runRun(["--cwd", cwd, "--config", config, "--approve", "all", "Run the slow script"], io, {
      signals,
    });
    await io.stderr.waitFor("✓ allowed by approve all");
    await vi.waitFor(() => expect(processesRunning(["sleep", `${exitCode}.5`])).toHaveLength(1), { timeout: 10_000 });
    signals.emit(signal, signal);
    expect(await exit).toBe(exitCode);
    expect(io.stderr.text).toMatch(new RegExp(`telecode run: ended by ${signal}, and Claude Code with it\\.\\n$`));
    expect(processesRunning(["sleep", `${exitCode}.5`])).toEqual([]);
  });

  it("Ctrl-C interrupts the CLI first, then exits 130", async () => {
    const { io, config, cwd } = await setup([reply.bash("bash ./slow.sh", "Wait")]);
    await writeFile(join(cwd, "slow.sh"), "sleep 41.5\necho finished\n");
    const signals = new EventEmitter();
    const exit = runRun(["--cwd", cwd, "--config", config, "--approve", "all", "Run the slow script"], io, {
      signals,
    });
    await io.stderr.waitFor("✓ allowed by approve all");
    signals.emit("SIGINT");
    expect(await exit).toBe(130);
    expect(io.stdout.text).toBe("");
    expect(io.stderr.text).toContain("cancelling");
    // The CLI was interrupted (it ended the turn), not killed: the turn reads as interrupted.
    expect(io.stderr.text).toMatch(/■ interrupted|cancelled/);
    // "cancelled." is printed either way: only the turn's own end proves the interrupt reached the CLI.
    expect(io.stderr.text).toContain("■ interrupted");
  });
});
