/**
 * The demo TPP's notification endpoint (TPP-Notification-URI, on /v2 Client-Notification-URI): an
 * HTTPS server that accepts only pushes from a client certificate of the bank's CA and keeps the
 * latest ones, of either form, for the statuses page.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";

export interface Pushed {
  receivedAt: string;
  /** The pushing client certificate's subject: the bank. */
  sender: string;
  /** NextGenPSD2 1.3's form or openFinance PUSH 2.4's (with `_links`). */
  body: Record<string, unknown>;
}

export interface Inbox {
  url: string;
  /** Newest first. */
  latest(): readonly Pushed[];
  close(): Promise<void>;
}

export interface InboxIdentity { key: Buffer; cert: Buffer; ca: Buffer }

const KEPT = 50;
const BODY_LIMIT = 16 * 1024;

function parse(raw: string): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(raw);
    return typeof body === "object" && body !== null
      ? body as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

export async function startInbox(identity: InboxIdentity, host: string): Promise<Inbox> {
  const pushed: Pushed[] = [];
  const server: Server = createServer({ ...identity, requestCert: true, rejectUnauthorized: true,
    requestTimeout: 10_000, headersTimeout: 5_000 }, (request, response) => {
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      raw += chunk;
      if (raw.length > BODY_LIMIT) request.destroy();
    });
    request.on("end", () => {
      const body = request.method === "POST" ? parse(raw) : undefined;
      if (!body) return void response.writeHead(400).end();
      const peer = (request.socket as TLSSocket).getPeerCertificate();
      const sender = [peer.subject?.CN ?? ""].flat().join(", ");
      pushed.unshift({ receivedAt: new Date().toISOString(), sender, body });
      pushed.splice(KEPT);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // localhost: a domain of the demo TPP's certificate, as the bank requires of the URI.
    url: `https://localhost:${port}/notifications`,
    latest: () => pushed,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
