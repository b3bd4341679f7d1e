// The [webhook_server] listen address: "host:port" parsed, whether only this machine can
// reach it, and the URLs it serves. Pure string work; nothing is bound here.
import { isIP } from "node:net";

export type ListenAddress = Readonly<{
  /** An IPv4 or IPv6 literal (without brackets), or "localhost". */
  host: string;
  /** 0 asks the system for any free port. */
  port: number;
}>;

export const DEFAULT_LISTEN = "127.0.0.1:8765";

/** "127.0.0.1:8765", "[::1]:8765", "localhost:8765", "0.0.0.0:8765"; null for anything else. */
export function parseListenAddress(text: string): ListenAddress | null {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  if (match === null) return null;
  const host = match[1] ?? match[2] ?? "";
  const port = Number(match[3]);
  if (port > 65_535) return null;
  const bracketed = match[1] !== undefined;
  if (bracketed ? isIP(host) !== 6 : host !== "localhost" && isIP(host) !== 4) return null;
  return Object.freeze({ host, port });
}

/** True when only this machine can connect: localhost, 127.0.0.0/8, ::1 (also IPv4-mapped). */
export function isLoopbackHost(host: string): boolean {
  const lowered = host.toLowerCase();
  if (lowered === "localhost" || lowered === "::1") return true;
  const v4 = lowered.startsWith("::ffff:") ? lowered.slice(7) : lowered;
  return isIP(v4) === 4 && v4.startsWith("127.");
}

/** "127.0.0.1:8765" or "[::1]:8765", as the file spells it. */
export function formatListenAddress(address: ListenAddress): string {
  return `${address.host.includes(":") ? `[${address.host}]` : address.host}:${address.port}`;
}

/** The URL a sender on this machine would post to for `path`. */
export function webhookUrl(address: ListenAddress, path: string): string {
  return `http://${formatListenAddress(address)}${path}`;
}
