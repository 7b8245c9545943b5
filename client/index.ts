/**
 * A typed TPP client for psd2-bank: one `request` whose paths, methods, path parameters, request
 * bodies and answers are those of the bank's published OpenAPI document, through the types that
 * `client/generate.ts` writes from it (openapi-typescript). Node https with the TPP's QWAC (mTLS);
 * X-Request-ID fresh on each call.
 */
import { randomUUID } from "node:crypto";
import { Agent, request as httpsRequest } from "node:https";

type Method = "get" | "post" | "put" | "delete";

/** What openapi-typescript writes for one operation, as far as this client reads it. */
interface Operation {
  parameters?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  requestBody?: { content: { "application/json": unknown } };
  responses: Record<string | number, { content?: { "application/json"?: unknown } }>;
}

type OperationOf<Paths, P extends keyof Paths, M extends Method> =
  Paths[P] extends Record<M, infer O> ? (O extends Operation ? O : never) : never;

/** The methods a path offers (openapi-typescript marks the others `never`/`undefined`). */
export type MethodsOf<Paths, P extends keyof Paths> = {
  [M in Method]: OperationOf<Paths, P, M> extends never ? never : M
}[Method];

type Answer<O extends Operation> = {
  [S in keyof O["responses"]]: {
    status: S extends number ? S : number;
    headers: Record<string, string | string[] | undefined>;
    body: O["responses"][S] extends { content: { "application/json": infer B } } ? B : undefined;
  }
}[keyof O["responses"]];

type Parameters<O extends Operation> = NonNullable<O["parameters"]>;

export type RequestInit<O extends Operation> = {
  path?: Parameters<O>["path"];
  query?: Parameters<O>["query"];
  headers?: Record<string, string>;
} & (O["requestBody"] extends { content: { "application/json": infer B } } ? { body: B } : { body?: undefined });

export interface ClientOptions {
  /** e.g. https://bank.example:8443 (the document's paths start with /psd2/v1). */
  baseUrl: string;
  /** The QWAC and its key; ca: the bank's server certificate chain where it is not public. */
  tls: { cert: string | Buffer; key: string | Buffer; ca?: string | Buffer };
  /** Sent on every call (PSU-IP-Address, TPP-Redirect-URI, a signer's headers, ...). */
  headers?: Record<string, string>;
  /** Sees every exchange before the caller (logging, conformance checks); throwing fails it. */
  observe?: (exchange: Exchange) => void;
}

export interface Exchange {
  method: string;
  /** The path as sent, with its query. */
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

function fill(path: string, values: Record<string, unknown> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

export function createClient<Paths>(options: ClientOptions) {
  const agent = new Agent({ ...options.tls, keepAlive: true });
  return {
    request<P extends keyof Paths & string, M extends MethodsOf<Paths, P>>(
      method: M, path: P, init: RequestInit<OperationOf<Paths, P, M>>,
    ): Promise<Answer<OperationOf<Paths, P, M>>> {
      const url = new URL(fill(path, init.path as Record<string, unknown>), options.baseUrl);
      for (const [name, value] of Object.entries((init.query ?? {}) as Record<string, unknown>)) {
        if (value !== undefined) url.searchParams.set(name, String(value));
      }
      const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
      const headers: Record<string, string> = {
        "X-Request-ID": randomUUID(), Accept: "application/json", ...options.headers, ...init.headers,
        ...(payload === undefined ? {} : { "Content-Type": "application/json" }),
      };
      return new Promise((resolve, reject) => {
        const req = httpsRequest(url, { method: method.toUpperCase(), agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            try {
              const text = Buffer.concat(chunks).toString("utf8");
              const body: unknown = text ? JSON.parse(text) : undefined;
              const answer = { status: res.statusCode ?? 0, headers: res.headers, body };
              options.observe?.({
                method: method.toUpperCase(), path: url.pathname + url.search,
                requestHeaders: headers, requestBody: init.body, ...answer,
              });
              resolve(answer as Answer<OperationOf<Paths, P, M>>);
            } catch (error) {
              reject(error as Error);
            }
          });
        });
        req.on("error", reject);
        if (payload !== undefined) req.write(payload);
        req.end();
      });
    },
    close(): void { agent.destroy(); },
  };
}
