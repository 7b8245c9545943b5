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

export interface CallOptions {
  /** A header set to null is not sent at all. */
  headers?: Record<string, string | null>;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string;
}

export class TppClient {
  private readonly agent: Agent;

  constructor(readonly baseUrl: string, tls: { ca: Buffer | string; cert?: Buffer | string; key?: Buffer | string }) {
    this.agent = new Agent({ ...tls, keepAlive: true, maxSockets: 64 });
  }

  call(method: string, path: string, options: CallOptions = {}): Promise<TppResponse> {
    const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const headers: Record<string, string> = { "X-Request-ID": randomUUID(), Accept: "application/json" };
    if (payload !== undefined) headers["Content-Type"] = "application/json";
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      const existing = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
      if (existing) delete headers[existing];
      if (value !== null) headers[name] = value;
    }
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const req = request(url, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = undefined;
          try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
      });
      req.on("error", reject);
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
