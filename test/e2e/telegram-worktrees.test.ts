// [projects.NAME] worktrees_dir through the real bridge, the real CLI and real git: each chat
// works in a worktree of its own on a branch of its own, made (and said) before its first
// task and used from then on; /status says where; a worktree git cannot make fails the task
// with git's words and what to do.
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectConfig } from "../../src/config/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer, startRig, withButton, type Rig } from "../telegram/bridge/rig.js";

describe("worktrees", () => {
  let rig: Rig;
  let worktrees: string;
  const git = (...args: string[]): string =>
    execFileSync("git", ["-C", rig.ws.cwd, ...args], { encoding: "utf8", env: { ...process.env, ...rig.ws.env } });
  /** The rig's project with worktrees (and `base`), set as a person editing the config would. */
  const withWorktrees = (base: string | null = null): void => {
    const projects = rig.config.projects.map((p): ProjectConfig => ({
      ...p,
      worktreesDir: worktrees,
      worktreeBase: base,
    }));
    rig.config = { ...rig.config, projects, defaultProject: projects[0] ?? null };
  };

  beforeAll(async () => {
    rig = await startRig();
    worktrees = join(rig.ws.root, "worktrees");
    writeFileSync(join(rig.ws.cwd, "README.md"), "# App\n");
    git("add", "README.md");
    git("-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "first");
    withWorktrees();
  });
  afterAll(async () => {
    await rig?.dispose();
  });

  /** Whether Claude Code's request for `marker` was made working in `folder` (its prompt names its folder). */
  const workedIn = (marker: string, folder: string): boolean =>
    rig.api.requests(marker).some((r) => JSON.stringify(r.body).includes(folder));

  it("gives each chat its own worktree, said once before its first task, and used for its later ones", async () => {
    const [ann, bob] = [rig.user(1001), rig.user(1002)];
    rig.script("[wt-ann]", [reply.text("ANN-FIRST"), reply.text("ANN-SECOND")]);
    rig.script("[wt-bob]", [reply.text("BOB-FIRST")]);
    rig.tg.sendText(ann, "Look around [wt-ann]");
    rig.tg.sendText(bob, "Look around [wt-bob]");
    await rig.botMessage(ann, isAnswer("ANN-FIRST"));
    await rig.botMessage(bob, isAnswer("BOB-FIRST"));

    const annFolder = join(worktrees, "chat-1001");
    const told = await rig.botMessage(ann, (m) => m.text.startsWith("🌿"));
    expect(told.text).toBe(
      `🌿 This conversation works in its own worktree of app: ${annFolder}, on branch telecode/chat-1001. The project's own folder is left as it is.`,
    );
    expect(existsSync(join(annFolder, "README.md"))).toBe(true);
    expect(existsSync(join(worktrees, "chat-1002", "README.md"))).toBe(true);
    expect(
      git("branch", "--list", "telecode/*")
        .split("\n")
        .map((b) => b.trim().replace(/^[*+] /, "")),
    ).toEqual(expect.arrayContaining(["telecode/chat-1001", "telecode/chat-1002"]));
    expect(workedIn("[wt-ann]", annFolder)).toBe(true);
    expect(workedIn("[wt-bob]", join(worktrees, "chat-1002"))).toBe(true);

    rig.tg.sendText(ann, "And again");
    await rig.botMessage(ann, isAnswer("ANN-SECOND"));
    expect(rig.tg.botMessages(ann).filter((m) => m.text.startsWith("🌿"))).toHaveLength(1);
    expect(await rig.command(ann, "status")).toContain(`Worktree: ${annFolder}, branch telecode/chat-1001`);
  }, 90_000);

  it("makes a worktree removed by hand again, on the branch it had, and says so", async () => {
    const bob = rig.user(1002);
    const folder = join(worktrees, "chat-1002");
    const before = git("rev-parse", "telecode/chat-1002");
    rmSync(folder, { recursive: true, force: true });
    rig.script("[wt-bob-again]", [reply.bash("touch remade.txt", "Create a file"), reply.text("BOB-AGAIN")]);
    rig.tg.sendText(bob, "Once more [wt-bob-again]");
    const prompt = await rig.botMessage(bob, withButton("✅ Allow"));
    rig.tg.tapButton(bob, prompt.messageId, "✅ Allow");
    await rig.botMessage(bob, isAnswer("BOB-AGAIN"));
    // Bob's Claude Code, idle since his last task, was in the folder removed: the task ran in the new one.
    expect(existsSync(join(folder, "remade.txt"))).toBe(true);
    expect(rig.tg.botMessages(bob).filter((m) => m.text.startsWith("🌿"))).toHaveLength(2);
    expect(existsSync(join(folder, "README.md"))).toBe(true);
    expect(git("-C", folder, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("telecode/chat-1002");
    expect(git("rev-parse", "telecode/chat-1002")).toBe(before);
  }, 60_000);

  it("starts a chat's conversation afresh in its worktree, saying so, when it began in the project's folder", async () => {
    const chat = rig.user(1004);
    const plain = rig.config.projects.map((p): ProjectConfig => ({ ...p, worktreesDir: null }));
    rig.config = { ...rig.config, projects: plain, defaultProject: plain[0] ?? null };
    rig.script("[wt-before]", [reply.text("BEFORE-ANSWER")]);
    rig.script("[wt-after]", [reply.text("AFTER-ANSWER")]);
    rig.tg.sendText(chat, "Remember the word kiwi [wt-before]");
    await rig.botMessage(chat, isAnswer("BEFORE-ANSWER"));
    expect(workedIn("[wt-before]", rig.ws.cwd)).toBe(true);
    // /new closes the chat's Claude Code, as the idle close would: the next task opens one in the worktree.
    await rig.app.bridge.sessions.closeIdle({ chatId: chat, project: "app" });
    withWorktrees();
    rig.tg.sendText(chat, "Which word? [wt-after]");
    await rig.botMessage(chat, isAnswer("AFTER-ANSWER"));
    const asked = rig.api.requests("[wt-after]");
    expect(JSON.stringify(asked[0]?.body)).toContain(join(worktrees, "chat-1004"));
    expect(JSON.stringify(asked[0]?.body)).not.toContain("kiwi");
    const told = await rig.botMessage(chat, (m) => m.text.startsWith("🌿"));
    expect(told.text).toMatch(/The project's own folder is left as it is\. Its session starts afresh there\.$/);
    // Not the words for a conversation Claude Code lost: this one is in the project's folder.
    expect(rig.tg.botMessages(chat).some((m) => m.text.includes("no longer has session"))).toBe(false);
  }, 60_000);

  it("fails a task whose worktree git cannot make, with git's words and what to do", async () => {
    withWorktrees("no-such-branch");
    try {
      const chat = rig.user(1003);
      rig.tg.sendText(chat, "Look around [wt-broken]");
      const failed = await rig.botMessage(chat, (m) => m.text.includes("Could not make"));
      // Git's own words for the missing branch differ between its versions.
      expect(failed.text).toMatch(
        /^⚠️ Could not make this chat's worktree of app \(git said: fatal: [^)]*no-such-branch[^)]*\)\. Mend it on the computer running Telecode, or take worktrees_dir out of \[projects\.app\]; until then every message fails the same way\.$/,
      );
      expect(rig.api.requests("[wt-broken]")).toHaveLength(0);
      expect(await rig.command(chat, "status")).toContain("made at this chat's next task");
    } finally {
      withWorktrees();
    }
  }, 60_000);
});
