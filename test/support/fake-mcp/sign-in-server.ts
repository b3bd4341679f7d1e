// An MCP server over HTTP that wants a sign-in: an MCP request without a token it gave out is
// refused with 401, pointing at OAuth metadata (RFC 9728, RFC 8414) and a client registration
// that works, so Claude Code finds a sign-in it could start and lists the server as `needs-auth`.
// The sign-in can be finished: its page is on a web address (as a real one is, so a chat can offer
// it as a button) that `signIn` stands in for, giving the address the browser is sent back to
// with a code, as an authorization server does once the person has signed in; `/token` trades
// the code for a token (PKCE checked). With that token the server speaks MCP's
// streamable HTTP (JSON replies, no event stream) and offers one tool, `tickets`. Enough of OAuth
// and MCP for that, and nothing more.
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type SignInServer = {
  url: string;
  /** The sign-in page's web address (not served: `signIn` stands in for a browser there). */
  readonly pageUrl: string;
  /** Where a browser that opened `authUrl` is sent once the person has signed in. */
  signIn(authUrl: string): string;
  /** The tool calls made with a token, by their arguments. */
  readonly calls: readonly unknown[];
  close(): Promise<void>;
};

export const TICKETS = "3 open tickets: TC-1 login fails on Android, TC-2 slow search, TC-3 typo on the pricing page";

const PAGE = "https://auth.tracker.example/authorize";

type JsonRpc = { id?: number | string; method?: string; params?: Record<string, unknown> };

export async function startSignInServer(): Promise<SignInServer> {
  let base = "";
  const codes = new Map<string, string>(); // code → its PKCE challenge
  const tokens = new Set<string>();
  const calls: unknown[] = [];
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const mcp = (message: JsonRpc): unknown => {
    switch (message.method) {
      case "initialize":
        return {
          protocolVersion: message.params?.["protocolVersion"],
          capabilities: { tools: {} },
          serverInfo: { name: "tracker", version: "1.0.0" },
        };
      case "tools/list":
        return {
          tools: [{ name: "tickets", description: "Lists the open tickets.", inputSchema: { type: "object" } }],
        };
      case "tools/call":
        calls.push(message.params?.["arguments"]);
        return { content: [{ type: "text", text: TICKETS }] };
      default:
        return {};
    }
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", base);
    const body = await readBody(req);
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource"))
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (
      url.pathname.startsWith("/.well-known/oauth-authorization-server") ||
      url.pathname.startsWith("/.well-known/openid")
    )
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: PAGE,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    if (url.pathname === "/register")
      return json(res, 201, { ...(JSON.parse(body || "{}") as object), client_id: "telecode-test" });
    if (url.pathname === "/token") {
      const form = new URLSearchParams(body);
      const challenge = codes.get(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (challenge === undefined || createHash("sha256").update(verifier).digest("base64url") !== challenge)
        return json(res, 400, { error: "invalid_grant" });
      codes.delete(form.get("code") ?? "");
      const token = randomUUID();
      tokens.add(token);
      return json(res, 200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
    }
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (!tokens.has(token)) {
      res.writeHead(401, {
        "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
      });
      return void res.end();
    }
    if (req.method !== "POST") {
      res.writeHead(405);
      return void res.end();
    }
    const message = JSON.parse(body) as JsonRpc;
    if (message.id === undefined) {
      res.writeHead(202);
      return void res.end();
    }
    json(res, 200, { jsonrpc: "2.0", id: message.id, result: mcp(message) });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    pageUrl: PAGE,
    signIn(authUrl) {
      const page = new URL(authUrl);
      if (`${page.origin}${page.pathname}` !== PAGE) throw new Error(`not the sign-in page: ${authUrl}`);
      const redirect = new URL(page.searchParams.get("redirect_uri") ?? "");
      const code = randomUUID();
      codes.set(code, page.searchParams.get("code_challenge") ?? "");
      redirect.searchParams.set("code", code);
      redirect.searchParams.set("state", page.searchParams.get("state") ?? "");
      return redirect.href;
    },
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
