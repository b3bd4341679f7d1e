// An HTTPS front for a local HTTP server, with a certificate nothing trusts unless told to (as a
// company proxy that inspects TLS shows its own): test/support/tls/cert.pem, self-signed for
// localhost and 127.0.0.1, valid until 2126.
import { readFileSync } from "node:fs";
import { connect, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { createServer } from "node:tls";

/** The certificate's file: what NODE_EXTRA_CA_CERTS names to trust it. */
export const TEST_CA_FILE = join(import.meta.dirname, "tls", "cert.pem");

/** Serves https://localhost:PORT in front of http://127.0.0.1:`port`; resolves with its root and a close. */
export async function startTlsFront(port: number): Promise<{ root: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer(
    { key: readFileSync(join(import.meta.dirname, "tls", "key.pem")), cert: readFileSync(TEST_CA_FILE) },
    (client) => {
      const upstream = connect(port, "127.0.0.1");
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => undefined);
      }
      client.pipe(upstream).pipe(client);
    },
  );
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    root: `https://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
