// Which proxy, if any, a request goes through, read from the environment as curl and most tools
// (Claude Code among them) read it: HTTPS_PROXY for https, HTTP_PROXY for http, ALL_PROXY for
// either, lower-case names first; NO_PROXY's hosts (and this machine's own addresses) directly.
// Pure: the environment is passed in.

export type ProxyChoice =
  | { kind: "direct" }
  /** `variable`: the environment variable that named it. */
  | { kind: "proxy"; url: URL; variable: string };

const PROXY_VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"];

const PROXY_SCHEMES = new Set(["http:", "https:", "socks:", "socks4:", "socks4a:", "socks5:", "socks5h:"]);

/** A proxy variable Telecode cannot use, named with what to do. */
export class ProxySettingError extends Error {
  override readonly name = "ProxySettingError";
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable} ${reason}: fix it or unset it (an http://, https:// or socks5:// URL, e.g. http://proxy:3128)`);
  }
}

const DIRECT: ProxyChoice = { kind: "direct" };

/** How a request to `target` goes out. Throws ProxySettingError when the variable that applies is not a proxy URL. */
export function proxyFor(target: URL, env: Readonly<Record<string, string | undefined>>): ProxyChoice {
  const names =
    target.protocol === "https:"
      ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
      : ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"];
  const variable = names.find((name) => (env[name] ?? "").trim() !== "");
  if (variable === undefined || isThisMachine(target.hostname) || bypassed(target, noProxyOf(env))) return DIRECT;
  return { kind: "proxy", url: proxyUrl(variable, (env[variable] ?? "").trim()), variable };
}

/** The proxy's address for logs and `telecode doctor`: its user and password left out. */
export function shownProxy(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

function proxyUrl(variable: string, value: string): URL {
  // As curl does, a proxy named without a scheme is an HTTP proxy.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ProxySettingError(variable, "is not a URL");
  }
  if (!PROXY_SCHEMES.has(url.protocol)) throw new ProxySettingError(variable, `names a ${url.protocol} proxy`);
  if (url.hostname === "") throw new ProxySettingError(variable, "names no host");
  return url;
}

function noProxyOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const value = env["no_proxy"] ?? env["NO_PROXY"] ?? "";
  return value
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
}

/** NO_PROXY: `*`, a host (its subdomains too), `.host` or `*.host`, each with an optional `:port`. */
function bypassed(target: URL, entries: readonly string[]): boolean {
  const host = bare(target.hostname.toLowerCase());
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  return entries.some((entry) => {
    if (entry === "*") return true;
    const [name, entryPort] = hostAndPort(entry);
    if (entryPort !== undefined && entryPort !== port) return false;
    const suffix = name.replace(/^\*?\./, "");
    return host === suffix || host.endsWith(`.${suffix}`);
  });
}

/** An entry's host and port: `host`, `host:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address. */
function hostAndPort(entry: string): [string, string | undefined] {
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) return [bracketed[1]!, bracketed[2]];
  const parts = entry.split(":");
  return parts.length === 2 && /^\d+$/.test(parts[1]!) ? [parts[0]!, parts[1]] : [entry, undefined];
}

const bare = (host: string): string => host.replace(/^\[|\]$/g, "");

/** This machine's own names and addresses: no proxy could reach them for it. */
function isThisMachine(hostname: string): boolean {
  const host = bare(hostname.toLowerCase());
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Every proxy variable's password (as written and decoded), to keep out of logs and messages. */
export function proxyPasswords(env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>();
  for (const name of PROXY_VARIABLES) {
    const value = (env[name] ?? "").trim();
    if (value === "") continue;
    try {
      const { password } = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
      if (password === "") continue;
      found.add(password);
      found.add(decodeURIComponent(password));
    } catch {
      // Not a URL: refused where it applies (proxyFor), and holds no password to hide.
    }
  }
  return [...found];
}
