// What people do to the bot's place in a chat: someone adds it to a group (as a member or an
// admin), a person blocks it (every write answers 403), a group's admin takes its right to send
// messages (every send answers Telegram's 400 "not enough rights"), and undoes either. Telegram
// tells the bot with a my_chat_member update each time.
import type { FakeWorld, StoredChat } from "./state.js";

/** The bot's standing in a chat, as my_chat_member reports it. */
type Standing = { status: string } & Record<string, unknown>;

const MEMBER: Standing = { status: "member" };

const ADMIN: Standing = { status: "administrator", can_be_edited: false, can_manage_chat: true };

/** Adds the bot to the group with `role`, or gives it that role there (an admin, or no longer one). */
export function setBotRole(world: FakeWorld, chat: StoredChat, byUserId: number, role: "member" | "admin"): void {
  if (chat.type === "private") throw new Error("fake Bot API: a bot is not added to a private chat");
  const before = world.botRoles.get(chat.id);
  if (before === role) return;
  world.botRoles.set(chat.id, role);
  const standing = (r: typeof before) => (r === undefined ? { status: "left" } : r === "admin" ? ADMIN : MEMBER);
  tellBot(world, chat, byUserId, standing(before), standing(role));
}

export function blockBot(world: FakeWorld, chat: StoredChat, blocked: boolean): void {
  if (blocked === world.blockedChats.has(chat.id)) return;
  if (blocked) world.blockedChats.add(chat.id);
  else world.blockedChats.delete(chat.id);
  const kicked = { status: "kicked", until_date: 0 };
  tellBot(world, chat, chat.id, blocked ? MEMBER : kicked, blocked ? kicked : MEMBER);
}

export function restrictBot(world: FakeWorld, chat: StoredChat, restricted: boolean, byUserId: number): void {
  if (chat.type === "private") throw new Error("fake Bot API: a private chat has no rights to take");
  if (restricted === world.mutedChats.has(chat.id)) return;
  if (restricted) world.mutedChats.add(chat.id);
  else world.mutedChats.delete(chat.id);
  const muted = { status: "restricted", is_member: true, can_send_messages: false, until_date: 0 };
  tellBot(world, chat, byUserId, restricted ? MEMBER : muted, restricted ? muted : MEMBER);
}

function tellBot(world: FakeWorld, chat: StoredChat, fromUserId: number, before: Standing, after: Standing): void {
  world.enqueueUpdate("my_chat_member", {
    chat: world.chatJson(chat),
    from: world.userJson(fromUserId),
    date: Math.floor(world.now() / 1000),
    old_chat_member: { user: world.botJson(), ...before },
    new_chat_member: { user: world.botJson(), ...after },
  });
}
