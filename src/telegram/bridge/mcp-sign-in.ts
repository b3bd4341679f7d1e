// Signing in to an MCP server from the chat. When a run's Claude Code lists servers that wait for
// a sign-in, the chat gets a message with a button per server. A tap has that Claude Code begin
// the sign-in and sends its page. The page ends by sending the browser to an address on the
// computer (localhost), where Claude Code waits: opened on that computer, that is the end of it;
// on a phone it cannot load, so the person sends that address here and Claude Code is given it.
// A message that is such an address goes nowhere else (never to Claude as a task).
import type { Composer } from "grammy";
import {
  definedFields,
  laneId,
  mcpServersNamed,
  type Lane,
  type McpSignInEnd,
  type McpSignInStart,
} from "../../domain/index.js";
import { isLocalLink } from "../../policy/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import { isNoProcess, type SessionManager } from "../../sessions/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import { buttonTrigger, type CallbackRegistry } from "../callback-data.js";
import type { Outbox } from "../outbox.js";
import type { BridgeAction } from "./bridge-types.js";
import type { IncomingText, TelecodeContext } from "./context.js";
import { columnKeyboard, linkButtonUrl } from "./prompt-html.js";
import { buttonComposer, toast, type RefuseDeps, type Tap } from "./buttons/tap.js";

const SIGN_IN_TRIGGER = buttonTrigger("s\\d{1,2}");
/** How long a server offered for a sign-in is named only in runs' summaries before it is offered again. */
const OFFER_AGAIN_MS = 6 * 3_600_000;

const offerKey = (lane: Lane, server: string): string => `${laneId(lane)}/${server}`;

/** A sign-in begun from the chat whose page ends at an address a phone cannot open. */
type Waiting = { lane: Lane; server: string; callbackPrefix: string };

type SignInSessions = Pick<SessionManager, "mcpSignIn" | "mcpSignInCallback">;

export type McpSignInDeps = {
  outbox: Outbox;
  callbacks: CallbackRegistry<BridgeAction>;
  logger: Logger;
  clock: Clock;
  /** Whether the chat is a group's, where the bot may only read what replies to it. */
  inGroup: (chatId: number) => boolean;
};

export class McpSignIns {
  readonly #deps: McpSignInDeps;
  /** Per chat, the sign-ins waiting for the address their page ends at, newest last. */
  readonly #waiting = new Map<number, Waiting[]>();
  /** When each lane's server was last offered (chat/project/server), until a sign-in to it finishes. */
  readonly #offered = new Map<string, number>();

  constructor(deps: McpSignInDeps) {
    this.#deps = deps;
  }

  /**
   * Says in the lane's chat that `servers` wait for a sign-in, with a button for each: once a
   * while per server (each new Claude Code process names them again, every idle close), so a
   * server nobody signs in to does not fill the chat. False when none was offered: the run's
   * summary names them then, as any warning.
   */
  offer(lane: Lane, servers: readonly string[], replyTo: number | undefined): boolean {
    const nowMs = this.#deps.clock.now();
    const fresh = servers.filter((server) => {
      const at = this.#offered.get(offerKey(lane, server));
      return at === undefined || nowMs - at >= OFFER_AGAIN_MS;
    });
    if (fresh.length === 0) return false;
    for (const server of fresh) this.#offered.set(offerKey(lane, server), nowMs);
    const { who, its } = mcpServersNamed(fresh);
    const needs = fresh.length === 1 ? "needs" : "need";
    const token = this.#deps.callbacks.register({ kind: "mcp_sign_in", lane, servers: fresh }, lane.chatId);
    const keyboard = columnKeyboard(
      fresh.map((server, i) => ({
        label: `🔑 Sign in to ${server}`,
        data: this.#deps.callbacks.data(token, `s${i}`),
      })),
    );
    const html = `🔑 MCP ${esc(who)} ${needs} a sign-in; Claude works without ${its} tools until then.`;
    void this.#deps.outbox.send(lane.chatId, { html, keyboard }, { mustDeliver: true, ...definedFields({ replyTo }) });
    return true;
  }

  /** The sign-in buttons: each begins its server's sign-in in the lane's Claude Code. */
  buttons(deps: Omit<RefuseDeps, "outbox"> & { sessions: SignInSessions }): Composer<TelecodeContext> {
    return buttonComposer({ ...this.#deps, ...deps }, SIGN_IN_TRIGGER, "mcp_sign_in", (tap, action) => {
      const server = action.servers[Number(tap.choice?.slice(1))];
      if (server === undefined) return;
      toast(this.#deps.outbox, tap, `Starting the sign-in to ${server}…`);
      this.#begin(deps.sessions, tap, action.lane, server).catch((error: unknown) =>
        this.#deps.logger.event("telegram.mcp_sign_in_failed", { err: error }, "error"),
      );
    });
  }

  /**
   * Takes a message that is the address a sign-in page ended at: gives it to the Claude Code
   * waiting for it, or says none waits. Undefined (not taken) for any other message.
   */
  take(sessions: SignInSessions, message: IncomingText): Promise<void> | undefined {
    const address = message.body.trim();
    if (/\s/.test(address) || !isLocalLink(address)) return undefined;
    const waiting = this.#waiting.get(message.chatId) ?? [];
    const sign = waiting.findLast((w) => address === w.callbackPrefix || address.startsWith(`${w.callbackPrefix}?`));
    if (sign === undefined) {
      if (!isSignInReturn(address)) return undefined;
      this.#say(
        message,
        "No sign-in waits for this address: it belongs to one that has finished, or to one begun before Telecode or Claude Code restarted. Tap 🔑 Sign in again to start over.",
      );
      return Promise.resolve();
    }
    return this.#finish(sessions, message, sign, address);
  }

  async #begin(sessions: SignInSessions, tap: Tap, lane: Lane, server: string): Promise<void> {
    let start: McpSignInStart;
    try {
      start = await sessions.mcpSignIn(lane, server);
    } catch (error) {
      const why = isNoProcess(error) ? GONE : esc(messageOf(error));
      return this.#reply(lane.chatId, tap.messageId, `Could not start the sign-in to ${esc(server)}: ${why}`);
    }
    if (start.kind === "signed_in")
      return this.#reply(
        lane.chatId,
        tap.messageId,
        `✅ ${esc(server)} is signed in and connected: Claude can use its tools from your next message.`,
      );
    if (start.callbackPrefix !== undefined) {
      const waiting = (this.#waiting.get(lane.chatId) ?? []).filter(
        (w) => !(w.server === server && w.lane.project === lane.project),
      );
      this.#waiting.set(lane.chatId, [...waiting, { lane, server, callbackPrefix: start.callbackPrefix }]);
    }
    const button = linkButtonUrl(start.url);
    // A page whose end Claude Code does not wait for (a claude.ai connector's) has nothing to send back.
    const sendBack =
      start.callbackPrefix === undefined
        ? []
        : [
            `The page then sends your browser to <code>${esc(start.callbackPrefix)}?…</code>, an address only the computer running Telecode can open. On a phone it will not load: copy that address from the browser and send it here${this.#deps.inGroup(lane.chatId) ? " as a reply to this message" : ""}.`,
          ];
    const html = [
      `🔑 Sign in to ${esc(server)}: open the page and sign in.`,
      ...sendBack,
      "",
      `<a href="${esc(start.url).replace(/"/g, "%22")}">${esc(pageName(start.url))}</a>`,
    ].join("\n");
    const keyboard =
      button === undefined ? undefined : { inline_keyboard: [[{ text: "🔗 Open the sign-in page", url: button }]] };
    void this.#deps.outbox.send(lane.chatId, keyboard === undefined ? { html } : { html, keyboard }, {
      mustDeliver: true,
      ...definedFields({ replyTo: tap.messageId }),
    });
  }

  async #finish(sessions: SignInSessions, message: IncomingText, sign: Waiting, address: string): Promise<void> {
    const server = esc(sign.server);
    let end: McpSignInEnd;
    try {
      end = await sessions.mcpSignInCallback(sign.lane, sign.server, address);
    } catch (error) {
      if (isNoProcess(error)) {
        this.#forget(message.chatId, sign);
        return this.#say(message, `The sign-in to ${server} did not finish: ${GONE}`);
      }
      // Still waiting: the address from the page itself may yet finish it.
      const why = esc(messageOf(error));
      return this.#say(
        message,
        `The sign-in to ${server} did not finish: ${why} Tap 🔑 Sign in to ${server} to start over.`,
      );
    }
    this.#forget(message.chatId, sign);
    // Should it need a sign-in again (one expires), the next process offers it at once.
    this.#offered.delete(offerKey(sign.lane, sign.server));
    this.#say(
      message,
      end.connected
        ? `✅ Signed in to ${server}: Claude can use its tools from your next message.`
        : `Signed in to ${server}, but it did not connect: ${esc(end.why)} Claude works without its tools.`,
    );
  }

  #forget(chatId: number, sign: Waiting): void {
    const left = (this.#waiting.get(chatId) ?? []).filter((w) => w !== sign);
    if (left.length === 0) this.#waiting.delete(chatId);
    else this.#waiting.set(chatId, left);
  }

  #say(message: IncomingText, html: string): void {
    this.#reply(message.chatId, message.messageId, html);
  }

  #reply(chatId: number, replyTo: number | undefined, html: string): void {
    void this.#deps.outbox.send(chatId, { html }, { mustDeliver: true, ...definedFields({ replyTo }) });
  }
}

/** An address a sign-in page sends a browser back with: its code (or its error) and the flow's state. */
function isSignInReturn(address: string): boolean {
  const query = new URL(address).searchParams;
  return query.has("state") && (query.has("code") || query.has("error"));
}

/** The page's address without its query (which holds nothing a person reads): where the link goes. */
function pageName(url: string): string {
  try {
    const page = new URL(url);
    return `${page.origin}${page.pathname}${page.search === "" ? "" : "?…"}`;
  } catch {
    return url;
  }
}

const GONE = "Claude Code is no longer running in this chat. Send a message, then tap 🔑 Sign in again.";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
