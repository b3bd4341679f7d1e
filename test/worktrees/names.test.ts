// The folder and branch each lane's worktree gets: a private chat's and a group's by their
// Telegram ids, a chat inside a group (a forum topic, a member's own conversation) by Telecode's
// number for it, short enough to read in a chat and a branch list.
import { describe, expect, it } from "vitest";
import type { ProjectConfig } from "../../src/config/index.js";
import { FIRST_INNER_CHAT_ID } from "../../src/domain/index.js";
import { laneFolder, worktreeBranch } from "../../src/worktrees/index.js";

const project = { name: "app", path: "/code/app", worktreesDir: "/code/app-worktrees" } as ProjectConfig;
const lane = (chatId: number) => ({ chatId, project: "app" });

describe("a worktree's name", () => {
  it("names a private chat's and a group's by their ids, an inner chat's by its number", () => {
    expect(worktreeBranch(lane(1001))).toBe("telecode/chat-1001");
    expect(worktreeBranch(lane(-1002003004))).toBe("telecode/group-1002003004");
    expect(worktreeBranch(lane(FIRST_INNER_CHAT_ID - 3))).toBe("telecode/conversation-3");
    expect(laneFolder(project, lane(FIRST_INNER_CHAT_ID - 3))).toBe("/code/app-worktrees/conversation-3");
  });

  it("leaves a project without worktrees in its own folder", () => {
    expect(laneFolder({ ...project, worktreesDir: null }, lane(1001))).toBe("/code/app");
  });
});
