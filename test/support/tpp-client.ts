/**
 * A TPP's HTTP client for tests: real TLS with a client certificate, keep-alive, JSON in and out,
 * and a fresh X-Request-ID on every call unless the test sets (or removes) one.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:https";

export interface TppResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Wire JSON, inspected freely by tests: the one place `any` is allowed. */
  body: any;
  text: string;
}

/** What an HTTP signer sees of a request: it returns the headers to add (test/support/http-signer.ts). */
export type RequestSigner = (request: {
  method: string; target: string; headers: Record<string, string | string[]>; body: string;
}) => Record<string, string>;

export interface CallOptions {
  /** A header set to null is not sent at all; one set to several values is sent once per value. */
  headers?: Record<string, string | string[] | null>;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string;
  /** Signs this call instead of the client's signer. */
  sign?: RequestSigner;
  /** Set on the one repetition of a GET whose kept-alive connection was found closed. */
  retried?: boolean;
}

/** Sees every exchange before the test does; throwing fails the call (test/support/berlin-group.ts). */
export type ExchangeCheck = (exchange: {
  method: string; path: string; requestHeaders: Record<string, string | string[]>;
  requestBody: unknown; status: number;
  headers: TppResponse["headers"]; body: unknown;
}) => void;

export class TppClient {
  private readonly agent: Agent;
  /** Signs every call (after the headers are final) when set. */
  signer: RequestSigner | undefined;
  /** The bank's API_PROFILE: what a creation answers (flows.ts). */
  profile: "spec" | "berlin-group" = "spec";
  check: ExchangeCheck | undefined;

  constructor(
    readonly baseUrl: string,
    /** localAddress: the client address the bank sees, e.g. 127.0.0.2 to pose as a proxy. */
    tls: { ca: Buffer | string; cert?: Buffer | string; key?: Buffer | string; localAddress?: string },
  ) {
    this.agent = new Agent({ ...tls, keepAlive: true, maxSockets: 64 });
  }

  call(method: string, path: string, options: CallOptions = {}): Promise<TppResponse> {
    const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const headers: Record<string, string | string[]> = { "X-Request-ID": randomUUID(), Accept: "application/json" };
    if (payload !== undefined) headers["Content-Type"] = "application/json";
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      const existing = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
      if (existing) delete headers[existing];
      if (value !== null) headers[name] = value;
    }
    const url = new URL(path, this.baseUrl);
    const sign = options.sign ?? this.signer;
    if (sign) Object.assign(headers, sign({ method, target: url.pathname + url.search, headers, body: payload ?? "" }));
    return new Promise((resolve, reject) => {
      const req = request(url, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = undefined;
          try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
          const response = { status: res.statusCode ?? 0, headers: res.headers, body, text };
          try {
            const sent = { requestHeaders: headers, requestBody: options.body };
            this.check?.({ method, path: url.pathname + url.search, ...sent, ...response });
          } catch (error) {
            reject(error as Error);
            return;
          }
          resolve(response);
        });
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as the request went out (its idle timeout
        // fires late when a synchronous operator command held this process): a GET is sent again
        // on a new one, as browsers do (Node's documentation of `reusedSocket`).
        const stale = req.reusedSocket && error.code === "ECONNRESET" && method === "GET";
        if (stale && !options.retried) {
          resolve(this.call(method, path, { ...options, retried: true }));
        } else reject(error);
      });
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  get(path: string, headers?: Record<string, string | null>) {
    return this.call("GET", path, { headers });
  }

  post(path: string, body: unknown, headers?: Record<string, string | null>) {
    return this.call("POST", path, { body, headers });
  }

  close(): void {
    this.agent.destroy();
  }
}
