// The delivery ids each webhook accepted, so a delivery sent again after a restart is still
// known as a replay. Bounded: each webhook keeps only its newest ids.
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";

export type WebhookDeliveriesRepository = {
  /** Up to `limit` ids recorded for `webhookId`, newest first. */
  recent(webhookId: string, limit: number): string[];
  /** Records a delivery (again: no change) and forgets that webhook's ids beyond the newest `keep`. */
  add(webhookId: string, deliveryId: string, receivedAtMs: number, keep: number): void;
  /** Forgets one delivery. */
  remove(webhookId: string, deliveryId: string): void;
};

function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new StoreError("store.invalid_input", `${name} must be a whole number of 1 or more, got ${value}`);
}

export function createWebhookDeliveriesRepository(db: Database): WebhookDeliveriesRepository {
  // rowid grows with each insert, so "newest" needs no clock and has no ties.
  const recent = db.prepare<[string, number], { delivery_id: string }>(
    "SELECT delivery_id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY rowid DESC LIMIT ?",
  );
  const insert = db.prepare(
    "INSERT OR IGNORE INTO webhook_deliveries (webhook_id, delivery_id, received_at) VALUES (?, ?, ?)",
  );
  const prune = db.prepare<{ webhook: string; keep: number }>(`
    DELETE FROM webhook_deliveries WHERE webhook_id = :webhook AND rowid <= (
      SELECT rowid FROM webhook_deliveries WHERE webhook_id = :webhook ORDER BY rowid DESC LIMIT 1 OFFSET :keep
    )`);
  const remove = db.prepare("DELETE FROM webhook_deliveries WHERE webhook_id = ? AND delivery_id = ?");
  const add = db.transaction((webhookId: string, deliveryId: string, receivedAtMs: number, keep: number) => {
    if (insert.run(webhookId, deliveryId, receivedAtMs).changes > 0) prune.run({ webhook: webhookId, keep });
  });

  return {
    recent: (webhookId, limit) => {
      checkCount("limit", limit);
      return recent.all(webhookId, limit).map((row) => row.delivery_id);
    },
    add: (webhookId, deliveryId, receivedAtMs, keep) => {
      checkCount("keep", keep);
      if (deliveryId === "" || !Number.isSafeInteger(receivedAtMs))
        throw new StoreError("store.invalid_input", "a delivery needs a non-empty id and a whole-millisecond time");
      add(webhookId, deliveryId, receivedAtMs, keep);
    },
    remove: (webhookId, deliveryId) => {
      remove.run(webhookId, deliveryId);
    },
  };
}
