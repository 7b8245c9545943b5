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

/** One call: the body sent as is, the answer's text kept (parsed as JSON when it is JSON). */
interface Call {
  method: string; url: URL; headers: Record<string, string>; payload?: string; requestBody: unknown;
}

function exchange(options: ClientOptions, agent: Agent, call: Call) {
  return new Promise<Exchange & { text: string }>((resolve, reject) => {
    const { method, url, headers } = call;
    const req = httpsRequest(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        try {
          const text = Buffer.concat(chunks).toString("utf8");
          const json = /json/.test(String(res.headers["content-type"] ?? "json"));
          const body: unknown = text && json ? JSON.parse(text) : undefined;
          const answer = {
            method, path: url.pathname + url.search, requestHeaders: headers,
            requestBody: call.requestBody, status: res.statusCode ?? 0, headers: res.headers, body,
          };
          options.observe?.(answer);
          resolve({ ...answer, text });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on("error", reject);
    if (call.payload !== undefined) req.write(call.payload);
    req.end();
  });
}

/** Berlin Group's pain.001 products take the document itself; pain.002 answers the status. */
export type Pain001Service = "payments" | "bulk-payments";

/** A statement file's range: dateFrom is required, dateTo defaults to today. */
export interface CamtQuery {
  dateFrom: string; dateTo?: string; bookingStatus: "booked" | "pending" | "both";
}

export function createClient<Paths>(options: ClientOptions) {
  const agent = new Agent({ ...options.tls, keepAlive: true });
  const base = (extra: Record<string, string> = {}) => ({
    "X-Request-ID": randomUUID(), Accept: "application/json", ...options.headers, ...extra,
  });
  const readXml = async (url: URL, headers: Record<string, string> = {}) => {
    const sent = base({ ...headers, Accept: "application/xml" });
    const answer = await exchange(options, agent,
      { method: "GET", url, headers: sent, requestBody: undefined });
    return { status: answer.status, headers: answer.headers, text: answer.text };
  };
  return {
    async request<P extends keyof Paths & string, M extends MethodsOf<Paths, P>>(
      method: M, path: P, init: RequestInit<OperationOf<Paths, P, M>>,
    ): Promise<Answer<OperationOf<Paths, P, M>>> {
      const url = new URL(fill(path, init.path as Record<string, unknown>), options.baseUrl);
      for (const [name, value] of Object.entries((init.query ?? {}) as Record<string, unknown>)) {
        if (value !== undefined) url.searchParams.set(name, String(value));
      }
      const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
      const headers = base({
        ...init.headers, ...(payload === undefined ? {} : { "Content-Type": "application/json" }),
      });
      const { status, headers: answerHeaders, body } = await exchange(options, agent,
        { method: method.toUpperCase(), url, headers, payload, requestBody: init.body });
      return { status, headers: answerHeaders, body } as Answer<OperationOf<Paths, P, M>>;
    },
    /**
     * Initiates a payment from a pain.001 document (`product` e.g.
     * "pain.001-sepa-credit-transfers"); the answer is the JSON one of any initiation.
     */
    async sendPain001(
      service: Pain001Service, product: string, document: string, headers?: Record<string, string>,
    ) {
      const url = new URL(`/psd2/v1/${service}/${encodeURIComponent(product)}`, options.baseUrl);
      const sent = base({ ...headers, "Content-Type": "application/xml" });
      // requestBody is the JSON body an observer checks; a document is not one.
      const call = { method: "POST", url, headers: sent, payload: document, requestBody: undefined };
      const { status, headers: answerHeaders, body } = await exchange(options, agent, call);
      return { status, headers: answerHeaders, body: body as Record<string, unknown> | undefined };
    },
    /** A payment's status as a pain.002 report (the XML text) or, refused, the JSON error. */
    readPain002(service: string, product: string, paymentId: string) {
      const path = [service, product, paymentId].map(encodeURIComponent).join("/");
      return readXml(new URL(`/psd2/v1/${path}/status`, options.baseUrl));
    },
    /**
     * An account's transactions as a camt.053 statement (past days) or a camt.052 report (a
     * range reaching today), the XML text, or, refused, the JSON error.
     */
    readCamt(accountId: string, query: CamtQuery, headers: Record<string, string>) {
      const url = new URL(`/psd2/v1/accounts/${encodeURIComponent(accountId)}/transactions`,
        options.baseUrl);
      for (const [name, value] of Object.entries(query)) {
        if (value !== undefined) url.searchParams.set(name, value);
      }
      return readXml(url, headers);
    },
    close(): void { agent.destroy(); },
  };
}
