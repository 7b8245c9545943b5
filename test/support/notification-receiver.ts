/**
 * A TPP's notification endpoint for tests: a real HTTPS server (certificate of the development
 * CA, for localhost) that records what the bank pushes and can be told to fail.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { DevCertificatePaths } from "../../src/tpp/dev-ca.js";

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  target: string;
  raw: string;
  body: Record<string, string>;
  /** The client certificate the bank presented, as DER base64. */
  clientCertificate: string | null;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The next `count` requests are answered 503 (and not recorded as received). */
  failNext(count: number): void;
  /** From now on requests are recorded on arrival but answered only by release(). */
  hold(): void;
  /** Answers the held requests (204) and stops holding. */
  release(): void;
  close(): Promise<void>;
}

/** `port`: 0 lets the system choose. */
export async function startReceiver(certs: DevCertificatePaths, port = 0): Promise<Receiver> {
  const [key, cert, ca] = await Promise.all([
    readFile(certs.serverKey), readFile(certs.serverCert), readFile(certs.caCert),
  ]);
  const received: Received[] = [];
  let failing = 0;
  let held: import("node:http").ServerResponse[] | undefined;
  const server: Server = createServer({ key, cert, ca, requestCert: true, rejectUnauthorized: true },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        if (failing > 0) {
          failing -= 1;
          response.writeHead(503).end();
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const peer = (request.socket as import("node:tls").TLSSocket).getPeerCertificate();
        received.push({
          headers: request.headers, target: request.url ?? "", raw, body: JSON.parse(raw),
          clientCertificate: peer.raw ? peer.raw.toString("base64") : null,
        });
        if (held) held.push(response);
        else response.writeHead(204).end();
      });
    });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${bound}/notifications`,
    received,
    failNext(count) { failing = count; },
    hold() { held = []; },
    release() {
      for (const response of held ?? []) response.writeHead(204).end();
      held = undefined;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
