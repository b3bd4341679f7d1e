// Replay protection: the delivery ids each webhook accepted lately, newest kept, oldest
// forgotten past a bound; loaded from and written through a DeliveryIdStore so a restart
// does not forget them. Check and record run without an await between them.
import type { DeliveryIdStore } from "./webhook-types.js";

/** Per webhook; GitHub's manual "Redeliver" is usually of something recent. */
export const DELIVERY_IDS_KEPT = 10_000;

export type ReplayGuard = {
  hasSeen(webhookId: string, deliveryId: string): boolean;
  /** Records an accepted delivery (in memory, and in the store when there is one). */
  record(webhookId: string, deliveryId: string, receivedAtMs: number): void;
  /** Forgets an accepted delivery that was not run, so its redelivery is accepted. */
  forget(webhookId: string, deliveryId: string): void;
};

export function createReplayGuard(options: {
  webhookIds: readonly string[];
  store?: DeliveryIdStore | undefined;
  capacity?: number;
}): ReplayGuard {
  const capacity = options.capacity ?? DELIVERY_IDS_KEPT;
  const seen = new Map<string, Set<string>>();
  for (const id of options.webhookIds) {
    // The store lists newest first; a Set keeps insertion order, so add oldest first.
    const recent = options.store?.recent(id, capacity) ?? [];
    seen.set(id, new Set([...recent].reverse()));
  }
  const idsOf = (webhookId: string): Set<string> => {
    let ids = seen.get(webhookId);
    if (ids === undefined) seen.set(webhookId, (ids = new Set()));
    return ids;
  };
  return {
    hasSeen: (webhookId, deliveryId) => idsOf(webhookId).has(deliveryId),
    record(webhookId, deliveryId, receivedAtMs) {
      const ids = idsOf(webhookId);
      ids.add(deliveryId);
      for (const oldest of ids) {
        if (ids.size <= capacity) break;
        ids.delete(oldest);
      }
      options.store?.add(webhookId, deliveryId, receivedAtMs, capacity);
    },
    forget(webhookId, deliveryId) {
      idsOf(webhookId).delete(deliveryId);
      options.store?.remove(webhookId, deliveryId);
    },
  };
}
