// The Claude Code slash commands last seen in each project (its own, the bundled ones, the
// project's): kept so a chat can pass "/loop …" or "/compact" to the session after a restart,
// before the project's next session has listed them again.
import type { Database } from "better-sqlite3";
import { z } from "zod";
import { StoreError } from "./errors.js";

export type ClaudeCommandsRepository = {
  /** The names last seen in `project` (without the slash), or null when none were seen yet. */
  get(project: string): readonly string[] | null;
  set(project: string, names: readonly string[]): void;
};

const names = z.array(z.string().min(1).max(200)).max(2000);

export function createClaudeCommandsRepository(db: Database): ClaudeCommandsRepository {
  const select = db.prepare<[string], { value: string }>("SELECT value FROM kv WHERE key = ?");
  const upsert = db.prepare(
    "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const key = (project: string): string => `claude_commands.${project}`;
  return {
    get(project) {
      const row = select.get(key(project));
      if (row === undefined) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(row.value);
      } catch {
        parsed = undefined;
      }
      const checked = names.safeParse(parsed);
      if (!checked.success)
        throw new StoreError(
          "store.corrupt_row",
          `The stored Claude Code commands of project ${project} cannot be read. Run \`telecode doctor\` to check the database.`,
          { details: { project } },
        );
      return checked.data;
    },
    set(project, list) {
      const checked = names.safeParse([...new Set(list)]);
      if (!checked.success)
        throw new StoreError("store.invalid_input", "Claude Code command names must be short, non-empty strings.", {
          details: { project },
        });
      upsert.run(key(project), JSON.stringify(checked.data));
    },
  };
}
