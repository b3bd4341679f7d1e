// The keeper with the real CLI against the fake Messages API: a run survives its client going
// away, a re-attach replays exactly what was missed, an approval left open across a detach is
// answered after it, and a dead keeper or a crashed CLI is noticed. Needs `npm run build`.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findTaggedProcesses } from "../../src/process/index.js";
import { isKeeperError } from "../../src/keeper/index.js";
import { isSameProcessRunning } from "../../src/keeper/process-identity.js";
import { encodePermissionAnswer } from "../../src/wire/index.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "../support/claude-workspace.js";
import { reply, startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic/index.js";
import { processesRunning } from "../support/processes.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { controlArgs, initializeLine, launcherFor, Sink, useKeepers, userLine } from "./keeper-harness.js";

const tempDir = useTempDirs("keeper");
const keepers = useKeepers();
let api: FakeAnthropic | undefined;
let ws: ClaudeWorkspace | undefined;
afterEach(async () => {
  await api?.close();
  await ws?.cleanup();
});

async function startRealKeeper(
  replies: Parameters<typeof startFakeAnthropic>[0] = {},
  /** Files to write in the project before the CLI starts, by path relative to it. */
  files: Record<string, string> = {},
) {
  api = await startFakeAnthropic(replies);
  ws = await makeClaudeWorkspace(api.url);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(ws.cwd, path)), { recursive: true });
    await writeFile(join(ws.cwd, path), text);
  }
  const keepersDir = join(tempDir(), "keepers");
  const record = await keepers.start(launcherFor(keepersDir), {
    cli: { path: realClaudePath, args: controlArgs, cwd: ws.cwd, env: ws.env },
  });
  return { record, keepersDir, cwd: ws.cwd };
}

/** How many `sleep 42.75` processes run (the slow tool of the kill test). */
function sleepsRunning(): number {
  return processesRunning(["sleep", "42.75"]).length;
}

/** The answer that allows a `can_use_tool` request as asked. */
const allow = (asked: { request_id: string; request: { input: Record<string, unknown> } }): string =>
  encodePermissionAnswer(asked.request_id, { behavior: "allow", updatedInput: asked.request.input });

const isType = (type: string, subtype?: string) => (line: string) => {
  const value = JSON.parse(line) as { type?: string; subtype?: string };
  return value.type === type && (subtype === undefined || value.subtype === subtype);
};

describe("a keeper running the real CLI", () => {
  it("keeps the run across a detach and replays exactly the lines after the client's sequence number", async () => {
    const { record } = await startRealKeeper({ replies: [reply.text("First answer."), reply.text("Second answer.")] });
    const first = new Sink();
    const a = await keepers.attach(record, { sink: first, fence: 1 });
    expect(a.welcome.cliPid).toBe(record.cli.pid);
    await a.write(initializeLine("init_1"));
    const initReply = await first.waitFor((r) => r.line.includes('"init_1"'));
    await a.write(userLine("Say something"));
    const result = await first.waitFor((r) => isType("result")(r.line));
    expect(JSON.parse(result.line)).toMatchObject({ result: "First answer.", is_error: false });
    const seqs = first.lines.map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));

    expect(await a.detach()).toEqual({ kind: "detached" });
    expect(await isSameProcessRunning(record.cli)).toBe(true);

    const second = new Sink();
    const b = await keepers.attach(record, { sink: second, fence: 2, fromSeq: initReply.seq });
    expect(b.welcome.lastSeq).toBe(result.seq);
    expect(b.welcome.sessionId).toBe(JSON.parse(result.line).session_id);
    await second.waitFor((r) => r.seq === result.seq);
    expect(second.lines).toEqual(first.lines.filter((r) => r.seq > initReply.seq));

    await b.write(userLine("Say more"));
    const next = await second.waitFor((r) => r.seq > result.seq && isType("result")(r.line));
    expect(JSON.parse(next.line)).toMatchObject({ result: "Second answer." });

    const end = await b.shutdown();
    expect(end).toMatchObject({ kind: "exited", exit: { code: 0, signal: null }, lastSeq: next.seq });
    b.ack(next.seq);
    await b.released;
    expect(existsSync(record.dir)).toBe(false);
    expect(existsSync(record.socketPath)).toBe(false);
  });

  it("answers an approval left open across a detach after re-attaching, with its original request id", async () => {
    const { record, cwd } = await startRealKeeper({
      replies: [reply.bash("touch made-by-keeper && echo made"), reply.text("Made it.")],
    });
    const first = new Sink();
    const a = await keepers.attach(record, { sink: first, fence: 1 });
    await a.write(initializeLine("init_1"));
    await a.write(userLine("Make the file"));
    const asked = JSON.parse((await first.waitFor((r) => r.line.includes('"can_use_tool"'))).line) as {
      request_id: string;
      request: { input: Record<string, unknown> };
    };
    const seenByA = first.lines.at(-1)?.seq ?? 0;
    await a.detach();

    const second = new Sink();
    const b = await keepers.attach(record, { sink: second, fence: 2, fromSeq: seenByA });
    await b.write(initializeLine("init_2"));
    const reinit = JSON.parse((await second.waitFor((r) => r.line.includes('"init_2"'))).line) as {
      response: { pending_permission_requests?: { request_id: string }[] };
    };
    expect(reinit.response.pending_permission_requests?.map((p) => p.request_id)).toEqual([asked.request_id]);
    expect(existsSync(join(cwd, "made-by-keeper"))).toBe(false);

    await b.write(allow(asked));
    const result = JSON.parse((await second.waitFor((r) => isType("result")(r.line))).line) as { result: string };
    expect(result.result).toBe("Made it.");
    expect(existsSync(join(cwd, "made-by-keeper"))).toBe(true);
    expect(second.lines.every((r) => r.seq > seenByA)).toBe(true);
  });

  it("notices a keeper killed mid-run and leaves neither the CLI nor its tools running", async () => {
    const { record, cwd } = await startRealKeeper({ replies: [reply.bash("bash ./slow.sh", "Wait a while")] });
    // A slow command the CLI's sleep guard does not recognise: its grandchild is `sleep 42.75`.
    await writeFile(join(cwd, "slow.sh"), "sleep 42.75\necho finished\n");
    const sink = new Sink();
    const a = await keepers.attach(record, { sink });
    await a.write(initializeLine("init_1"));
    await a.write(userLine("Wait"));
    await a.write(allow(JSON.parse((await sink.waitFor((r) => r.line.includes('"can_use_tool"'))).line)));
    await expect.poll(() => sleepsRunning(), { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);

    process.kill(record.keeper.pid, "SIGKILL");
    expect(await a.closed).toEqual({ kind: "lost", keeperRunning: false });
    expect(await isSameProcessRunning(record.cli)).toBe(false);
    expect(await findTaggedProcesses(record.cli.tag)).toEqual([]);
    expect(sleepsRunning()).toBe(0);
    expect(existsSync(record.dir)).toBe(false);
    await expect(a.write(userLine("still there?"))).rejects.toSatisfy((e) => isKeeperError(e, "keeper.detached"));
  });

  it("reports a CLI that crashed: its exit code and stderr, and refuses later writes", async () => {
    const { record } = await startRealKeeper();
    const a = await keepers.attach(record, {});
    await a.write("this is not JSON");
    const end = await a.closed;
    expect(end).toMatchObject({ kind: "exited", exit: { code: 1, signal: null } });
    expect(a.stderrTail()).toContain("Error parsing streaming input line");
    await expect(a.write(userLine("hello?"))).rejects.toSatisfy((e) => isKeeperError(e, "keeper.stdin_closed"));
    a.ack(end.kind === "exited" ? end.lastSeq : 0);
    await a.released;
    expect(existsSync(record.dir)).toBe(false);
  });

  it("ends the CLI once its SessionEnd hooks are done, and leaves what one put in the background to finish", async () => {
    const summary = "summarized";
    const background = `nohup sh -c 'sleep 0.5; touch ${summary}' >/dev/null 2>&1 &`;
    // Longer than the 2 s the CLI gets to exit and the 2 s a SIGTERM gets (which the CLI holds
    // while its hooks run): its timeout allows it.
    const slow = { type: "command", command: "sleep 4.5 && touch held", timeout: 30 };
    const settings = { hooks: { SessionEnd: [{ hooks: [{ type: "command", command: background }, slow] }] } };
    const { record, cwd } = await startRealKeeper(
      { replies: [reply.text("Done.")] },
      { ".claude/settings.json": JSON.stringify(settings) },
    );
    const sink = new Sink();
    const a = await keepers.attach(record, { sink, fence: 1 });
    await a.write(initializeLine("init_1"));
    await a.write(userLine("Finish"));
    await sink.waitFor((r) => isType("result")(r.line));
    const ending = a.shutdown();
    // The client can tell what holds the CLI up (what the bot says to a message that waits on it).
    await vi.waitFor(() => expect(a.runsEndHook()).toBe(true), { timeout: 10_000, interval: 20 });
    expect(await ending).toMatchObject({ kind: "exited", exit: { code: 0, signal: null } });
    expect(a.runsEndHook()).toBe(false);
    expect(existsSync(join(cwd, "held"))).toBe(true);
    await vi.waitFor(() => expect(existsSync(join(cwd, summary))).toBe(true), { timeout: 10_000 });
  });
});
