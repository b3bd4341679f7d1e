// A full disk under Telecode's files. Its log file cannot be written: the bridge goes on
// answering, saying on stderr that log lines are lost (the log says how many once it can); the
// real `telecode` as a process of its own, its log file a link to /dev/full. Its database
// refuses to keep the updates it takes, as SQLite does on a full disk: they are handled all the
// same (a handler that then fails on the database says so: errors-say-what-to-do.test.ts), never
// asked for again and again, unanswered. A file sent to a project on a full disk says the disk is
// full and what to do; an outbox file that cannot be moved to sent/ is said to stay.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { fillDisk, mountTmpfs, tmpfsMountable } from "../support/tmpfs.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";
import { USER_ID, useWorld } from "./helpers.js";

const newWorld = useWorld();

describe.runIf(existsSync("/dev/full"))("the log on a full disk", () => {
  it("the bridge still starts and answers, and says once that log lines are lost", async () => {
    const world = await newWorld([reply.text("Still here.")]);
    await world.writeConfig();
    world.tg.addUser({ id: USER_ID });
    const log = join(world.dataDir, "logs", "telecode.log");
    await mkdir(join(world.dataDir, "logs"), { recursive: true });
    await symlink("/dev/full", log);
    const serve = world.spawnTelecode(["--config", world.configPath]);
    await serve.started;
    world.tg.sendText(USER_ID, "Are you there?");
    await world.tg.waitForBotMessage(USER_ID, isAnswer("Still here."), { timeoutMs: 60_000 });
    serve.child.kill("SIGTERM");
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    const said = exit.stderr.split("\n").filter((line) => line.includes("log file"));
    expect(said).toEqual([
      `telecode: the log file ${log} cannot be written (ENOSPC: no space left on the device); its lines are lost until it can be.`,
    ]);
  }, 120_000);
});

/** Makes SQLite refuse every insert into `tables` of the database at `path`, as a full disk does. */
function refuseInserts(path: string, tables: readonly string[]): () => void {
  const other = new Database(path);
  for (const table of tables)
    other.exec(
      `CREATE TRIGGER full_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
    );
  return () => {
    for (const table of tables) other.exec(`DROP TRIGGER full_${table}`);
    other.close();
  };
}

describe("the database refusing writes", () => {
  it("a message the inbox cannot keep is handled all the same", async () => {
    const rig = await startRig();
    const makeRoom = refuseInserts(rig.app.store.path, ["inbox"]);
    try {
      const chat = rig.user(1001);
      rig.script("[kept]", [reply.text("Handled without the inbox.")]);
      rig.tg.sendText(chat, "Are you there? [kept]");
      await rig.botMessage(chat, isAnswer("Handled without the inbox."));
    } finally {
      makeRoom();
      await rig.dispose();
    }
  });
});

/** A rig whose project's `.telecode` folder is a small disk of its own, prepared by `before`, then filled. */
async function withFullProjectDisk(
  body: (rig: Rig, telecodeDir: string) => Promise<void>,
  before: (telecodeDir: string) => void = () => undefined,
): Promise<void> {
  const rig = await startRig();
  const telecodeDir = join(rig.ws.cwd, ".telecode");
  mkdirSync(telecodeDir, { recursive: true });
  const unmount = mountTmpfs(telecodeDir, "64k");
  try {
    before(telecodeDir);
    fillDisk(telecodeDir);
    await body(rig, telecodeDir);
  } finally {
    unmount();
    await rig.dispose();
  }
}

describe.runIf(tmpfsMountable)("a project on a full disk", () => {
  it("a file sent there is refused saying the disk is full, and what to do once there is room", async () => {
    await withFullProjectDisk(async (rig) => {
      const chat = rig.user(1001);
      rig.tg.sendDocument(
        chat,
        { content: Buffer.from("ERROR boom\n".repeat(100)), fileName: "server.log", mimeType: "text/plain" },
        { caption: "Why does it fail?" },
      );
      const said = await rig.botMessage(chat, /out of disk space/);
      expect(said.text).toMatch(
        /^Could not (write server\.log in|prepare the folder) .*\(ENOSPC: no space left on the device\)\. Nothing was run\. The computer running Telecode is out of disk space: free some there, then send it again\.$/,
      );
      expect(rig.api.requests()).toEqual([]);
    });
  });

  it("a file from the outbox is sent, and what could not be moved to sent/ is said to stay", async () => {
    const prepareOutbox = (telecodeDir: string): void => {
      mkdirSync(join(telecodeDir, "outbox"));
      writeFileSync(join(telecodeDir, "outbox", ".gitignore"), "*\n");
      writeFileSync(join(telecodeDir, "outbox", "report.md"), "# Report\n");
    };
    await withFullProjectDisk(async (rig, telecodeDir) => {
      const chat = rig.user(1001);
      rig.script("[report]", [reply.text("The report is in the outbox.")]);
      rig.tg.sendText(chat, "Send the report [report]");
      await rig.botMessage(chat, isAnswer("The report is in the outbox."));
      const report = await rig.botMessage(chat, (m) => m.document?.fileName === "report.md");
      expect(report.document?.content.toString()).toBe("# Report\n");
      const notice = await rig.botMessage(chat, /^Left in/);
      expect(notice.text).toBe(
        "Left in .telecode/outbox/, as .telecode/sent/ could not take them (ENOSPC: no space left on the device); they will be sent again after the next answer, until they can be moved or you remove them:\n- report.md",
      );
      expect(existsSync(join(telecodeDir, "outbox", "report.md"))).toBe(true);
    }, prepareOutbox);
  });
});
