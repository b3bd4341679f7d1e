// Proxies on 127.0.0.1 for tests of Telecode's own requests: an HTTP proxy (absolute-form
// requests forwarded, CONNECT tunnelled or refused) and a SOCKS5 one (no authentication). Each
// reaches a name in `hosts` (e.g. "telegram.test") at a local port, which only a request through
// it can: nothing resolves such a name. Each records what it was asked.
import { createServer as createHttpServer, request as httpRequest, type Server as HttpServer } from "node:http";
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from "node:net";

/** Names the proxy reaches at local ports: { "telegram.test": 43123 }. */
export type ProxyHosts = Readonly<Record<string, number>>;

export type TestProxy = {
  /** e.g. "http://127.0.0.1:41234" or "socks5h://127.0.0.1:41234". */
  url: string;
  /** What it was asked, in order: "GET http://telegram.test:43123/bot…/getMe", "CONNECT api.telegram.org:443", "telegram.test:43123". */
  readonly seen: readonly string[];
  close(): Promise<void>;
};

/** Where a name the proxy knows goes; any other host is reached as it is. */
function target(hosts: ProxyHosts, host: string, port: number): { host: string; port: number } {
  const local = hosts[host];
  return local === undefined ? { host, port } : { host: "127.0.0.1", port: local };
}

async function listen(server: Server | HttpServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: Server | HttpServer, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** An HTTP proxy; `refuseConnect`: CONNECT is answered 403 (a proxy that allows no tunnel). */
export async function startHttpProxy(hosts: ProxyHosts, options: { refuseConnect?: boolean } = {}): Promise<TestProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? "");
    const to = target(hosts, url.hostname, Number(url.port || 80));
    const upstream = httpRequest(
      { host: to.host, port: to.port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, client: Socket) => {
    seen.push(`CONNECT ${req.url}`);
    if (options.refuseConnect === true) {
      client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    const [host = "", port = "443"] = (req.url ?? "").split(":");
    const to = target(hosts, host, Number(port));
    const upstream = connect(to.port, to.host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: closer(server, sockets) };
}

/** A SOCKS5 proxy without authentication that connects by name (socks5h) or by IPv4 address. */
export async function startSocksProxy(hosts: ProxyHosts): Promise<TestProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => undefined);
    client.once("data", (greeting) => {
      if (greeting[0] !== 5) return client.destroy();
      client.write(Buffer.from([5, 0])); // version 5, no authentication
      client.once("data", (request) => {
        const kind = request[3];
        let host: string;
        let at: number;
        if (kind === 1) {
          host = [...request.subarray(4, 8)].join(".");
          at = 8;
        } else if (kind === 3) {
          const length = request[4] ?? 0;
          host = request.subarray(5, 5 + length).toString("latin1");
          at = 5 + length;
        } else return client.destroy();
        const port = request.readUInt16BE(at);
        seen.push(`${host}:${port}`);
        const to = target(hosts, host, port);
        const upstream = connect(to.port, to.host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on("error", () => client.destroy());
      });
    });
  });
  const port = await listen(server);
  return { url: `socks5h://127.0.0.1:${port}`, seen, close: closer(server, sockets) };
}
