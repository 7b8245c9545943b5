/**
 * The demo TPP's side of the XS2A API: JSON over mutual TLS with the TPP's certificate, a fresh
 * X-Request-ID per call, keep-alive. Written as a TPP would write it, against the wire only.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:https";

export interface TlsIdentity { ca: string | Buffer; cert: string | Buffer; key: string | Buffer }

export interface Xs2aResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

/** Headers to send; a null value leaves a default header out. */
export type Headers = Record<string, string | null>;

export class Xs2aClient {
  private readonly agent: Agent;

  constructor(readonly baseUrl: string, identity: TlsIdentity) {
    this.agent = new Agent({ ...identity, keepAlive: true });
  }

  call<T = unknown>(method: string, path: string,
    options: { body?: unknown; headers?: Headers } = {}): Promise<Xs2aResponse<T>> {
    const payload = options.body === undefined ? undefined
      : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    const defaults: Headers = { "X-Request-ID": randomUUID(), Accept: "application/json" };
    if (payload !== undefined) defaults["Content-Type"] = "application/json";
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...defaults, ...options.headers })) {
      if (value !== null) headers[name] = value;
    }
    return new Promise((resolve, reject) => {
      const url = new URL(path, this.baseUrl);
      const req = request(url, { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown;
          try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text });
        });
      });
      req.on("error", reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  get<T = unknown>(path: string, headers?: Headers) {
    return this.call<T>("GET", path, { headers });
  }

  post<T = unknown>(path: string, body: unknown, headers?: Headers) {
    return this.call<T>("POST", path, { body, headers });
  }

  delete<T = unknown>(path: string, headers?: Headers) {
    return this.call<T>("DELETE", path, { headers });
  }

  close(): void {
    this.agent.destroy();
  }
}
