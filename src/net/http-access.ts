// Telecode's own requests (the Bot API, Telegram's files, a transcription service, `telecode
// doctor` and `init`) go out as Claude Code's do: through the proxy the environment names
// (proxy-choice.ts), an HTTP proxy (CONNECT for https) or a SOCKS one. Without one, nothing
// changes: Node's fetch and keep-alive agents.
import { Agent as HttpAgent, request as httpRequest, type Agent } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { HttpProxyAgent } from "http-proxy-agent";
import { HttpsProxyAgent } from "https-proxy-agent";
import { SocksProxyAgent } from "socks-proxy-agent";
import { proxyFor, shownProxy } from "./proxy-choice.js";

export type HttpAccess = {
  /** The agent for a request to `url` with Node's http clients (grammY's among them): keep-alive, through the proxy if one applies. */
  agentFor(url: URL): Agent;
  /** `fetch`, through the proxy if one applies. */
  fetch: typeof fetch;
  /** How a request to `url` goes out, for a log line or `telecode doctor`: "through http://proxy:3128 (HTTPS_PROXY)", or undefined when directly. */
  routeOf(url: URL): string | undefined;
  /**
   * Closes the connections the agents keep for reuse. After the computer slept they are most
   * likely gone without a word, and a request sent on one would wait out its deadline.
   */
  forgetConnections(): void;
};

/**
 * The way out for the environment `env`. A proxy variable that is not a proxy URL throws
 * ProxySettingError when a request it applies to is made.
 */
export function httpAccess(env: Readonly<Record<string, string | undefined>>): HttpAccess {
  const direct = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const proxied = new Map<string, Agent>();
  const agentFor = (url: URL): Agent => {
    const choice = proxyFor(url, env);
    const secure = url.protocol === "https:";
    if (choice.kind === "direct") return secure ? direct.https : direct.http;
    const key = `${choice.url.href} ${url.protocol}`;
    let agent = proxied.get(key);
    if (agent === undefined) {
      agent = proxyAgent(choice.url, secure);
      proxied.set(key, agent);
    }
    return agent;
  };
  return {
    agentFor,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      return proxyFor(url, env).kind === "direct" ? fetch(input, init) : fetchWith(agentFor(url), input, init);
    },
    routeOf: (url) => {
      const choice = proxyFor(url, env);
      return choice.kind === "direct" ? undefined : `through ${shownProxy(choice.url)} (${choice.variable})`;
    },
    forgetConnections: () => {
      for (const agent of [direct.http, direct.https, ...proxied.values()])
        for (const sockets of Object.values(agent.freeSockets))
          for (const socket of [...(sockets ?? [])]) socket.destroy();
    },
  };
}

function proxyAgent(proxy: URL, secureTarget: boolean): Agent {
  if (proxy.protocol.startsWith("socks")) return new SocksProxyAgent(proxy, { keepAlive: true });
  return secureTarget
    ? new HttpsProxyAgent(proxy, { keepAlive: true })
    : new HttpProxyAgent(proxy, { keepAlive: true });
}

/** fetch over Node's http clients with `agent`: a web Response whose body streams, ended by the init's signal. */
async function fetchWith(agent: Agent, input: string | URL | Request, init?: RequestInit): Promise<Response> {
  // A Request serialises any body fetch takes (a string, a FormData with its boundary, bytes).
  const prepared = new Request(input, init);
  const body = prepared.body === null ? undefined : Buffer.from(await prepared.arrayBuffer());
  const url = new URL(prepared.url);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  const signal = init?.signal ?? undefined;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: prepared.method,
        // A length rather than chunks: some proxies refuse a chunked upload.
        headers: {
          ...Object.fromEntries(prepared.headers),
          ...(body === undefined ? {} : { "content-length": String(body.length) }),
        },
        agent,
        ...(signal === undefined ? {} : { signal }),
      },
      (incoming) => {
        const headers = new Headers();
        const raw = incoming.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
        const status = incoming.statusCode ?? 502;
        const empty = status === 204 || status === 304 || prepared.method === "HEAD";
        if (empty) incoming.resume();
        const stream = empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, statusText: incoming.statusMessage ?? "", headers }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
