// Schedules: every loop, wake-up chain, config schedule and chat /at or /every, with the
// times and counters the scheduler keeps (next slot, last fired, iterations, cost, state).
import { randomBytes } from "node:crypto";
import type { Database } from "better-sqlite3";
import type {
  Schedule,
  ScheduleDraft,
  ScheduleExpectation,
  ScheduleFilter,
  ScheduleKind,
  SchedulePatch,
  ScheduleRepository,
} from "../schedule/index.js";
import { StoreError } from "./errors.js";
import { readRow, readRows } from "./records.js";
import { SCHEDULE_COLUMNS, scheduleColumns, scheduleRow } from "./schedule-row.js";

export type SchedulesRepository = ScheduleRepository;

/** `IN (…)` over a list, as placeholders plus the values; an empty list matches nothing. */
function inList(column: string, values: readonly string[] | undefined): { sql: string; args: string[] } {
  if (values === undefined) return { sql: "1", args: [] };
  if (values.length === 0) return { sql: "0", args: [] };
  return { sql: `${column} IN (${values.map(() => "?").join(", ")})`, args: [...values] };
}

function where(filter: ScheduleFilter): { sql: string; args: (string | number)[] } {
  const kinds = inList("kind", filter.kinds);
  const states = inList("state", filter.states);
  const chat = filter.chatId === undefined ? { sql: "1", args: [] } : { sql: "chat_id = ?", args: [filter.chatId] };
  return { sql: `${chat.sql} AND ${kinds.sql} AND ${states.sql}`, args: [...chat.args, ...kinds.args, ...states.args] };
}

export function createSchedulesRepository(db: Database, now: () => number): SchedulesRepository {
  const select = db.prepare("SELECT * FROM schedules WHERE schedule_id = ?");
  const insert = db.prepare(
    `INSERT INTO schedules (schedule_id, created_at, ${SCHEDULE_COLUMNS.join(", ")}) VALUES (@schedule_id, @created_at, ${SCHEDULE_COLUMNS.map((c) => `@${c}`).join(", ")})`,
  );
  const update = db.prepare(
    `UPDATE schedules SET ${SCHEDULE_COLUMNS.map((c) => `${c} = @${c}`).join(", ")} WHERE schedule_id = @schedule_id`,
  );

  const get = (id: string): Schedule | null => {
    const row = select.get(id);
    return row === undefined ? null : readRow(scheduleRow, "schedules", row);
  };

  const mustGet = (id: string): Schedule => {
    const stored = get(id);
    if (stored) return stored;
    throw new StoreError(
      "store.not_found",
      "A schedule could not be read back after writing it. Run `telecode doctor` to check the database.",
      { details: { scheduleId: id } },
    );
  };

  const freshId = (): string => {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (select.get(id) === undefined) return id;
    }
  };

  const insertDraft = db.transaction((draft: ScheduleDraft): Schedule => {
    const id = draft.id ?? freshId();
    const at = now();
    insert.run({
      schedule_id: id,
      created_at: at,
      ...scheduleColumns({
        ...draft,
        lastFiredAt: null,
        lastSlotAt: null,
        iterations: 0,
        busyStreak: 0,
        costUsd: 0,
        costDay: null,
        costDayUsd: 0,
        updatedAt: at,
      }),
    });
    return mustGet(id);
  });

  const updateRow = db.transaction((id: string, patch: SchedulePatch, expect: ScheduleExpectation): Schedule | null => {
    const current = get(id);
    if (current === null) return null;
    if (expect.state !== undefined && current.state !== expect.state) return null;
    if (expect.nextFireAt !== undefined && current.nextFireAt !== expect.nextFireAt) return null;
    const next = { ...current, ...patch, updatedAt: now() };
    update.run({ schedule_id: id, ...scheduleColumns(next) });
    return mustGet(id);
  });

  const list = (filter: ScheduleFilter = {}): Schedule[] => {
    const w = where(filter);
    const rows = db.prepare(`SELECT * FROM schedules WHERE ${w.sql} ORDER BY created_at, rowid`).all(...w.args);
    return readRows(scheduleRow, "schedules", rows);
  };

  const due = (kinds: readonly ScheduleKind[]) => inList("kind", kinds);

  return {
    insert: (draft) => insertDraft(draft),
    get,
    list,
    count: (filter = {}) => {
      const w = where(filter);
      const row = db.prepare(`SELECT count(*) AS n FROM schedules WHERE ${w.sql}`).get(...w.args) as { n: number };
      return row.n;
    },
    listDue: (nowMs, kinds) => {
      const k = due(kinds);
      const rows = db
        .prepare(
          `SELECT * FROM schedules WHERE state = 'active' AND next_fire_at <= ? AND ${k.sql} ORDER BY next_fire_at, rowid`,
        )
        .all(nowMs, ...k.args);
      return readRows(scheduleRow, "schedules", rows);
    },
    earliestDue: (kinds) => {
      const k = due(kinds);
      const row = db
        .prepare(`SELECT min(next_fire_at) AS at FROM schedules WHERE state = 'active' AND ${k.sql}`)
        .get(...k.args) as { at: number | null };
      return row.at;
    },
    update: (id, patch, expect = {}) => updateRow(id, patch, expect),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
  };
}
