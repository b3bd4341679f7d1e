// A webhook whose run failed as every run would (Claude Code not logged in or not found, the
// project's folder gone) is held until that is fixed, as a loop is: the failed delivery and the
// ones that come meanwhile are kept in SQLite, the chat is told once, and /resume runs them. The
// holds live in memory: at the next start the kept deliveries run, and the first to fail the
// same way holds its webhook again.
import type { RunFailure } from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";

export type WebhookHolds = {
  isHeld(webhookId: string): boolean;
  /** The webhooks held now, each with what its runs fail on. */
  held(): ReadonlyMap<string, string>;
  /**
   * A run of `webhookId` failed with `failure`, as its next runs would (`failsUntilFixed`), and
   * its delivery is kept: holds the webhook, telling `chatId` once.
   */
  hold(webhookId: string, chatId: number, failure: RunFailure): void;
  /** /resume: every held webhook runs again. */
  releaseAll(): void;
};

export function createWebhookHolds(notify: (chatId: number, html: string) => void): WebhookHolds {
  const held = new Map<string, string>();
  return {
    isHeld: (webhookId) => held.has(webhookId),
    held: () => held,
    hold(webhookId, chatId, failure) {
      if (held.has(webhookId)) return;
      held.set(webhookId, failure.what);
      notify(
        chatId,
        `⏸ Webhook <b>${esc(webhookId)}</b> is held: its runs would fail the same way until that is fixed. This delivery is kept, with any that come meanwhile; once it is fixed, send /resume to run them.`,
      );
    },
    releaseAll: () => held.clear(),
  };
}
