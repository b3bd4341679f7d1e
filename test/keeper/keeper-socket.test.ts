// The keeper's socket and log with the stand-in CLI (a real process that prints what a script
// says): fences, protocol versions, the short socket path, a slow client, the log cap, a full
// disk, and cleanup after the CLI exits. Needs `npm run build` (it runs bin/telecode.js).
import { existsSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  findKeepers,
  isKeeperError,
  KEEPER_PROTOCOL_VERSION,
  keeperPaths,
  maxSocketPathBytes,
  reapIfGone,
  retireKeeper,
  startKeeper,
  type KeeperLauncher,
  type KeeperRecord,
} from "../../src/keeper/index.js";
import { runKeeperCommand } from "../../src/cli/keeper.js";
import { readKeeperState } from "../../src/keeper/keeper-state.js";
import { identifyProcess, isSameProcessRunning } from "../../src/keeper/process-identity.js";
import { fakeClaudePath, line, writeFakeClaudeScript, type FakeClaudeStep } from "../support/fake-claude/index.js";
import { capturedIo } from "../support/captured-io.js";
import { processesWithEnv } from "../support/processes.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { fillDisk, mountTmpfs, tmpfsMountable } from "../support/tmpfs.js";
import { clock, launcherFor, matchesJson, Sink, useKeepers, userLine } from "./keeper-harness.js";

const tempDir = useTempDirs("keeper-socket");
const keepers = useKeepers();

/** A keeper running the stand-in CLI with `steps`; its log capped at `logCapBytes`. */
async function standInKeeper(
  steps: FakeClaudeStep[],
  options: { keepersDir?: string; keeperId?: string; logCapBytes?: number; exitGraceMs?: number } = {},
): Promise<KeeperRecord> {
  const dir = tempDir();
  const script = await writeFakeClaudeScript(dir, { steps });
  return keepers.start(launcherFor(options.keepersDir ?? join(dir, "keepers")), {
    ...(options.keeperId === undefined ? {} : { keeperId: options.keeperId }),
    ...(options.logCapBytes === undefined ? {} : { logCapBytes: options.logCapBytes }),
    ...(options.exitGraceMs === undefined ? {} : { exitGraceMs: options.exitGraceMs }),
    cli: { path: fakeClaudePath, args: [], cwd: dir, env: { PATH: process.env["PATH"] ?? "", ...script.env } },
  });
}

const answerEachUser: FakeClaudeStep[] = [
  { awaitIn: { type: "user" } },
  { out: line.text("one") },
  { awaitIn: { type: "user" } },
  { out: line.text("two") },
  { awaitIn: { type: "user" } },
];

/** Sends a raw frame and returns the keeper's first answer, parsed. */
function rawHello(socketPath: string, hello: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => socket.write(`${JSON.stringify(hello)}\n`));
    let text = "";
    socket.on("data", (chunk) => {
      text += String(chunk);
      const end = text.indexOf("\n");
      if (end >= 0) {
        socket.destroy();
        resolve(JSON.parse(text.slice(0, end)) as Record<string, unknown>);
      }
    });
    socket.on("error", reject);
  });
}

describe("keeper clients and fences", () => {
  it("lets a higher fence evict the client and refuses a lower one", async () => {
    const record = await standInKeeper(answerEachUser);
    const aLines = new Sink();
    const a = await keepers.attach(record, { fence: 5, sink: aLines });
    await a.write(userLine("first"));
    await aLines.waitForJson({ type: "assistant" });

    const bLines = new Sink();
    const b = await keepers.attach(record, { fence: 7, sink: bLines, fromSeq: 1 });
    expect(await a.closed).toEqual({ kind: "evicted", fence: 7 });
    await expect(a.write(userLine("from the old one"))).rejects.toSatisfy((e) => isKeeperError(e, "keeper.detached"));

    const refused = keepers.attach(record, { fence: 6 });
    await expect(refused).rejects.toSatisfy((e) => isKeeperError(e, "keeper.stale_fence"));
    await expect(refused).rejects.toThrow("A newer Telecode (fence 7) holds this keeper");

    await expect(b.write('{"type":"user",\n"x":1}')).rejects.toSatisfy((e) => isKeeperError(e, "keeper.bad_line"));
    await b.write(userLine("second"));
    const two = await bLines.waitFor((r) => r.line.includes('"two"'));
    expect(two.seq).toBe(2);
    const state = readKeeperState(join(record.dir, "state.json"));
    expect(state.kind === "current" && state.state.fence).toBe(7);
  });

  it("refuses another protocol version by name and, for a newer owner, lets the CLI finish and end", async () => {
    const record = await standInKeeper(answerEachUser);
    const answer = await rawHello(record.socketPath, {
      t: "hello",
      v: KEEPER_PROTOCOL_VERSION + 1,
      client: "future",
      fence: 3,
      fromSeq: 0,
      wants: "something new",
    });
    expect(answer).toMatchObject({ t: "refused", code: "protocol_mismatch", v: KEEPER_PROTOCOL_VERSION });
    expect(answer["reason"]).toContain(
      `This keeper speaks protocol ${KEEPER_PROTOCOL_VERSION} and the client ${KEEPER_PROTOCOL_VERSION + 1}`,
    );
    // Retired: stdin closed, so the stand-in (like the CLI when idle) exits.
    const later = await keepers.attach(record, { fence: 3 });
    expect(await later.closed).toMatchObject({ kind: "exited", exit: { code: 0 } });
  });

  it("answers a first frame that is not a hello with a refusal", async () => {
    const record = await standInKeeper(answerEachUser);
    expect(await rawHello(record.socketPath, { t: "ack", seq: 1 })).toMatchObject({ t: "refused", code: "bad_hello" });
    expect(await isSameProcessRunning(record.cli)).toBe(true);
  });
});

describe("keeper sockets", () => {
  it("uses a short private socket path when the state directory is too deep for a unix socket address", async () => {
    const deep = join(tempDir(), "d".repeat(60), "e".repeat(60));
    mkdirSync(deep, { recursive: true });
    const record = await standInKeeper(answerEachUser, { keepersDir: deep });
    expect(Buffer.byteLength(join(deep, record.keeperId, "keeper.sock"))).toBeGreaterThan(maxSocketPathBytes("linux"));
    expect(record.socketPath).toMatch(new RegExp(`^/tmp/telecode-${process.getuid?.() ?? 0}/k-[0-9a-f]{16}\\.sock$`));
    const stat = lstatSync(record.socketPath);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(lstatSync(join(record.socketPath, "..")).mode & 0o777).toBe(0o700);
    const sink = new Sink();
    const a = await keepers.attach(record, { sink });
    await a.write(userLine("hi"));
    await sink.waitFor((r) => r.line.includes('"one"'));
  });

  it("puts the socket under $XDG_RUNTIME_DIR/telecode while the path fits, else the short one", () => {
    const base = { keepersDir: "/var/lib/x/keepers", keeperId: "k1", platform: "linux" as const, uid: 1000 };
    expect(keeperPaths({ ...base, runtimeDir: "/run/user/1000" }).socketPath).toBe("/run/user/1000/telecode/k1.sock");
    expect(keeperPaths(base).socketPath).toBe("/var/lib/x/keepers/k1/keeper.sock");
    const long = `/run/${"r".repeat(100)}`;
    expect(keeperPaths({ ...base, runtimeDir: long }).socketPath).toMatch(
      /^\/tmp\/telecode-1000\/k-[0-9a-f]{16}\.sock$/,
    );
    expect(() => keeperPaths({ ...base, keeperId: "../escape" })).toThrow("is not a usable keeper id");
  });
});

describe("the keeper log under load and failure", () => {
  it("never holds up the CLI while the client is paused, and catches the client up in order", async () => {
    const dir = tempDir();
    const bulk = join(dir, "bulk.jsonl");
    const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify(line.text(`${i} ${"x".repeat(2000)}`)));
    writeFileSync(bulk, `${lines.join("\n")}\n`);
    const record = await standInKeeper([{ awaitIn: { type: "user" } }, { replay: bulk, times: 3 }, { exit: 0 }]);
    const sink = new Sink();
    const a = await keepers.attach(record, { sink });
    // While paused nothing is read, the answer to this write included: it settles after resume.
    const written = a.write(userLine("go"));
    a.pause();
    // 12 MB went out while nobody read: the CLI still got to exit.
    await expect
      .poll(
        () => {
          const state = readKeeperState(join(record.dir, "state.json"));
          return state.kind === "current" ? state.state.exit?.code : undefined;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(0);
    a.resume();
    await written;
    expect(await a.closed).toMatchObject({ kind: "exited", lastSeq: 6000 });
    expect(sink.lines.map((r) => r.seq)).toEqual(Array.from({ length: 6000 }, (_, i) => i + 1));
    expect(sink.lines[4321]?.line).toBe(lines[4321 % 2000]);
    expect(sink.gaps).toEqual([]);
  });

  it("drops lines over the cap and tells a client that replays from before them", async () => {
    const record = await standInKeeper(
      [
        { awaitIn: { type: "user" } },
        ...Array.from({ length: 60 }, (_, i) => ({ out: line.text(`line ${i}`) })),
        { awaitIn: { type: "user" } },
      ],
      { logCapBytes: 4096 },
    );
    const live = new Sink();
    const a = await keepers.attach(record, { sink: live });
    await a.write(userLine("go"));
    await live.waitFor((r) => r.line.includes('"line 59"'));
    expect(live.gaps).toEqual([]);
    await a.detach();

    const replayed = new Sink();
    const b = await keepers.attach(record, { sink: replayed, fence: 2 });
    await replayed.waitFor((r) => r.seq === 60);
    const [gap] = replayed.gaps;
    expect(gap).toMatchObject({ from: 1, reason: "capped" });
    expect(replayed.lines[0]?.seq).toBe((gap?.to ?? 0) + 1);
    expect(replayed.lines.map((r) => r.line)).toEqual(live.lines.slice(gap?.to ?? 0).map((r) => r.line));
    expect(b.welcome.firstSeq).toBe((gap?.to ?? 0) + 1);
  });

  it("keeps the CLI running when the disk refuses the log, and tells a later client what was lost", async () => {
    const keepersDir = join(tempDir(), "keepers");
    // The first log segment's name is a link to /dev/full: every write to it fails with ENOSPC.
    const logDir = join(keepersDir, "full-disk", "log");
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    symlinkSync("/dev/full", join(logDir, "000000000001.frames"));
    const record = await standInKeeper(answerEachUser, { keepersDir, keeperId: "full-disk" });
    const live = new Sink();
    const a = await keepers.attach(record, { sink: live });
    await a.write(userLine("first"));
    // A client that is caught up gets its lines whatever happens to the log.
    expect((await live.waitFor((r) => r.line.includes('"one"'))).seq).toBe(1);
    await a.detach();
    // The write fails in the background; the keeper then drops its log and notes why.
    const dropped = (): unknown => {
      const state = readKeeperState(join(record.dir, "state.json"));
      return state.kind === "current" ? state.state.logDropped : undefined;
    };
    await expect.poll(dropped, { timeout: 20_000, interval: 50 }).toEqual({ code: "ENOSPC", throughSeq: 1 });

    const later = new Sink();
    const b = await keepers.attach(record, { sink: later, fence: 2 });
    await b.write(userLine("second"));
    await later.waitFor((r) => r.line.includes('"two"'));
    expect(later.gaps).toEqual([{ t: "gap", from: 1, to: 1, reason: "disk_full" }]);
    expect(later.lines.map((r) => r.seq)).toEqual([2]);
  });
});

describe("after the CLI exits", () => {
  it("keeps the log for a client that comes later, then removes everything once it is acked", async () => {
    const record = await standInKeeper([
      { out: line.init() },
      { out: line.result("bye") },
      { stderr: "last words" },
      { exit: 3 },
    ]);
    const sink = new Sink();
    const a = await keepers.attach(record, { sink });
    const end = await a.closed;
    expect(end).toMatchObject({
      kind: "exited",
      lastSeq: 2,
      exit: { code: 3, signal: null, stderrTail: "last words" },
    });
    expect(sink.lines.map((r) => matchesJson(r.line, { type: "result" }))).toEqual([false, true]);
    expect((await findKeepers(join(record.dir, ".."))).map((k) => k.kind)).toEqual(["running"]);
    a.ack(2);
    await a.released;
    expect(await findKeepers(join(record.dir, ".."))).toEqual([]);
  });

  it("ends by itself after the grace period when nobody takes the log", async () => {
    // The CLI waits for a line before it exits: with no grace, a CLI that ended at once could
    // take the keeper's files before its start had read them.
    const record = await standInKeeper([{ out: line.init() }, { awaitIn: { type: "user" } }, { exit: 0 }], {
      exitGraceMs: 0,
    });
    const client = await keepers.attach(record, {});
    await client.write(userLine("go"));
    await client.detach();
    await expect.poll(() => isSameProcessRunning(record.keeper), { timeout: 30_000, interval: 50 }).toBe(false);
    expect(await findKeepers(join(record.dir, ".."))).toEqual([]);
    expect(existsSync(record.socketPath)).toBe(false);
  });
});

describe("a keeper found running that refuses an attach", () => {
  it("is reaped, its CLI and files, when it dies within a second (killed just before Telecode started)", async () => {
    const record = await standInKeeper(answerEachUser);
    const reaped = reapIfGone(record, clock);
    setTimeout(() => process.kill(record.keeper.pid, "SIGKILL"), 100);
    expect(await reaped).toBe(true);
    expect(existsSync(record.dir)).toBe(false);
    expect(await isSameProcessRunning(record.cli)).toBe(false);
  });

  it("is left as it is while it still runs", async () => {
    const record = await standInKeeper(answerEachUser);
    expect(await reapIfGone(record, clock)).toBe(false);
    expect((await findKeepers(join(record.dir, ".."))).map((k) => k.kind)).toEqual(["running"]);
  });
});

describe("starting a keeper", () => {
  it("fails with the reason and leaves no files when the CLI is missing", async () => {
    const keepersDir = join(tempDir(), "keepers");
    const start = startKeeper(launcherFor(keepersDir), {
      keeperId: "no-cli",
      cli: { path: "/nonexistent/claude", args: [], cwd: keepersDir.slice(0, -8), env: {} },
    });
    await expect(start).rejects.toSatisfy((e) => isKeeperError(e, "keeper.start_failed"));
    await expect(start).rejects.toThrow("Claude Code was not found at /nonexistent/claude");
    expect(existsSync(join(keepersDir, "no-cli"))).toBe(false);
  });

  /**
   * Starts keeper `keeperId` that cannot keep what it must (`disk`, a small tmpfs, prepared by
   * `prepare`), expects the start to fail with `message`, and nothing of it to be left running.
   */
  async function expectStartToFail(
    disk: { dir: string; readOnly?: boolean; prepare?: () => void },
    launcher: KeeperLauncher,
    keeperId: string,
    message: string,
  ): Promise<void> {
    mkdirSync(disk.dir, { recursive: true, mode: 0o700 });
    const unmount = mountTmpfs(disk.dir, "64k", { readOnly: disk.readOnly === true });
    const mark = randomUUID();
    try {
      disk.prepare?.();
      const script = await writeFakeClaudeScript(tempDir(), { steps: answerEachUser });
      const start = startKeeper(
        { ...launcher, env: { ...launcher.env, KEEPER_TEST_MARK: mark } },
        {
          keeperId,
          cli: { path: fakeClaudePath, args: [], cwd: tempDir(), env: { ...script.env, KEEPER_TEST_MARK: mark } },
        },
      );
      await expect(start).rejects.toThrow(message);
      expect(existsSync(join(launcher.keepersDir, keeperId))).toBe(false);
      // The keeper had started its CLI: both end, as nobody could find them again.
      await expect.poll(() => processesWithEnv("KEEPER_TEST_MARK", mark), { timeout: 20_000 }).toEqual([]);
    } finally {
      // Whatever was left running would keep the mount busy.
      for (const pid of processesWithEnv("KEEPER_TEST_MARK", mark)) process.kill(pid, "SIGKILL");
      unmount();
    }
  }

  it.runIf(tmpfsMountable)(
    "on a full disk fails saying so, and leaves no keeper, CLI or files behind",
    async () => {
      const keepersDir = join(tempDir(), "keepers");
      await expectStartToFail(
        { dir: keepersDir, prepare: () => fillDisk(keepersDir) },
        launcherFor(keepersDir),
        "full",
        `The keeper could not write ${join(keepersDir, "full", "state.json")} (ENOSPC: no space left on the device).`,
      );
    },
    40_000,
  );

  it.runIf(tmpfsMountable)(
    "with its socket's directory read-only fails saying so, and leaves nothing behind",
    async () => {
      const runtimeDir = join(tempDir(), "run");
      const keepersDir = join(tempDir(), "keepers");
      await expectStartToFail(
        { dir: runtimeDir, readOnly: true },
        launcherFor(keepersDir, { runtimeDir }),
        "no-socket",
        `The keeper could not listen on ${join(runtimeDir, "telecode", "no-socket.sock")} (EROFS: the file system is read-only).`,
      );
    },
    40_000,
  );

  it("answers a spec it cannot use with a ready line that says what is wrong", async () => {
    const out = capturedIo({});
    const code = await runKeeperCommand([], out, Readable.from(['{"keeperId":"../x"}']));
    expect(code).toBe(2);
    const ready = JSON.parse(out.out()) as { ready: boolean; code: string; message: string };
    expect(ready).toMatchObject({ ready: false, code: "keeper.bad_spec" });
    expect(ready.message).toContain("keeperId");
  });

  it("ends its CLI gracefully when told to stop, and then its own files", async () => {
    const record = await standInKeeper(answerEachUser);
    const a = await keepers.attach(record, {});
    process.kill(record.keeper.pid, "SIGTERM");
    expect(await a.closed).toMatchObject({ kind: "exited", exit: { code: 0, signal: null } });
    await a.released;
    expect(existsSync(record.dir)).toBe(false);
  });
});

describe("a keeper from another Telecode version", () => {
  it("is found by its state file and asked to let its CLI finish, with the fence of this Telecode", async () => {
    const keepersDir = join(tempDir(), "keepers");
    const dir = join(keepersDir, "old-one");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const socketPath = join(dir, "keeper.sock");
    // An older keeper, as far as this Telecode can know it: a state file with another protocol and a socket.
    const hellos: Record<string, unknown>[] = [];
    const old = createServer((socket) =>
      socket.once("data", (chunk) => {
        hellos.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        socket.end(`${JSON.stringify({ t: "refused", code: "protocol_mismatch", reason: "old", v: 0 })}\n`);
      }),
    );
    await new Promise<void>((resolve) => old.listen(socketPath, resolve));
    const self = await identifyProcess(process.pid);
    writeFileSync(join(dir, "state.json"), JSON.stringify({ protocol: 0, keeper: self, socketPath, other: "fields" }));
    try {
      const [found] = await findKeepers(keepersDir);
      expect(found).toEqual({ kind: "other_version", dir, protocol: 0, running: true, socketPath });
      const answer = await retireKeeper({ socketPath, fence: 9, clientId: "new", clock });
      expect(JSON.parse(answer ?? "{}")).toMatchObject({ t: "refused", code: "protocol_mismatch" });
      expect(hellos).toEqual([{ t: "hello", v: KEEPER_PROTOCOL_VERSION, client: "new", fence: 9, fromSeq: 0 }]);
    } finally {
      await new Promise((resolve) => old.close(resolve));
    }
  });
});
