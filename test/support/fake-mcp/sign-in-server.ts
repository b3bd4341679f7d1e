// An MCP server over HTTP that wants a sign-in: every MCP request is refused with 401, pointing
// at OAuth metadata (RFC 9728, RFC 8414) and a client registration that works, so Claude Code
// finds a sign-in it could start and lists the server as `needs-auth` (with no way to finish
// it unattended). Enough of OAuth for that, and nothing more.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type SignInServer = { url: string; close(): Promise<void> };

export async function startSignInServer(): Promise<SignInServer> {
  let base = "";
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path.startsWith("/.well-known/oauth-protected-resource"))
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (path.startsWith("/.well-known/oauth-authorization-server") || path.startsWith("/.well-known/openid"))
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
      });
    if (path === "/register") return json(res, 201, { client_id: "telecode-test", redirect_uris: [] });
    res.writeHead(401, {
      "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
    });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
