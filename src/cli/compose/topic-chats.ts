// A [[schedules]] or [[webhooks]] entry may name a forum topic (`topic`: its thread id in
// `chat_id`). Telecode knows each topic as a chat of its own (telegram/chat-topics.ts), so the
// scheduler and the webhook runs read the config with such an entry's chat made the topic's,
// given by the store as the bridge gives the topics it meets. A group that became a supergroup
// is known by its first id, whichever of its ids the entry names.
import type { Config } from "../../config/index.js";
import type { Store } from "../../store/index.js";

type Targeted = { chatId: number; topic: number | null };

/** `config` as the scheduler and the webhook runs read it: entries in a topic aimed at the topic's chat. */
export function withTopicChats(config: () => Config, store: Pick<Store, "chats">): () => Config {
  const seen = new WeakMap<Config, Config>();
  return () => {
    const current = config();
    const known = seen.get(current);
    if (known !== undefined) return known;
    const inTopics = [...current.schedules, ...current.webhooks].some((entry) => entry.topic !== null);
    const aimed = inTopics
      ? { ...current, schedules: current.schedules.map(aim), webhooks: current.webhooks.map(aim) }
      : current;
    seen.set(current, aimed);
    return aimed;
  };

  function aim<T extends Targeted>(entry: T): T {
    if (entry.topic === null) return entry;
    const first = store.chats.moves().find((move) => move.to === entry.chatId)?.from ?? entry.chatId;
    return { ...entry, chatId: store.chats.topic(first, entry.topic, null).chatId };
  }
}
