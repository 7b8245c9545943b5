/**
 * The TPP-facing server's common ground: the client certificate → TPP identity on every request
 * (failing closed), the role each route needs, X-Request-ID required and echoed, JSON bodies
 * parsed without float rounding, and every refusal rendered as Berlin Group tppMessages.
 */
import { createHash } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AuditRecord } from "../domain/kernel/audit.js";
import {
  endpointUnknown, formatError, headersTooLarge, internalError, malformedHttp, methodNotAllowed,
  payloadTooLarge, requestTimedOut, roleInvalid, tppRateLimited, unsupportedMediaType, Xs2aError,
} from "../domain/kernel/errors.js";
import { isUuid } from "../lib/ids.js";
import { memoized } from "../lib/memo.js";
import { parseJsonBody } from "../lib/json-body.js";
import { installXmlParser, type XmlBodyOptions } from "./xml/body.js";
import type { PspRole, TppIdentity } from "../tpp/certificate.js";
import { isV2Path, messagesFieldOf, renderError } from "./errors.js";
import { readPsuIpAddress, single } from "./headers.js";
import { installBearerCheck, type BearerOptions } from "./bearer.js";
import { createSignatureCheck } from "./signature.js";
import { createJwsSignatureCheck } from "./v2/jws-signature.js";
import { createIdentify, type CertificateSources } from "./tpp-certificate.js";

declare module "fastify" {
  interface FastifyRequest {
    tpp: TppIdentity;
    /** The DER of the certificate `tpp` was read from: what OAuth tokens are bound to. */
    tppCertificate: Uint8Array;
    resourceId: string | null;
    /** Whether the audit log has the request's record: it is written once, whichever comes. */
    audited: boolean;
    /** The body's bytes as received: what a Digest is computed over. */
    rawBody: Buffer | null;
  }
  /**
   * `oauth`: an OAuth endpoint (RFC 6749 and its extensions, not Berlin Group), which identifies
   * the TPP itself (oauth-endpoints.ts).
   */
  interface FastifyContextConfig {
    role?: PspRole; probe?: boolean; document?: boolean; oauth?: boolean;
  }
}

function readRequestId(request: FastifyRequest): string {
  const id = single(request.headers, "X-Request-ID");
  if (id === undefined) {
    throw formatError("header", "X-Request-ID", "X-Request-ID is required on every request.");
  }
  if (!isUuid(id)) throw formatError("header", "X-Request-ID", "X-Request-ID must be a UUID.");
  return id;
}

/** ajv's instancePath "/instructedAmount/amount" → "instructedAmount.amount". */
function fieldPath(instancePath: string, child?: unknown): string {
  const path = instancePath.replace(/^\//, "")
    .replace(/\/(\d+)(?=\/|$)/g, "[$1]").replace(/\//g, ".");
  if (typeof child !== "string") return path;
  return path ? `${path}.${child}` : child;
}

const ORIGINS = { querystring: "query", headers: "header" } as const;

/** Fastify validates lowercased header names; the route's schema writes them as the TPP does. */
function headerName(request: FastifyRequest, lowercase: string): string {
  const schema = request.routeOptions.schema?.headers as { properties?: object } | undefined;
  const declared = schema?.properties;
  return Object.keys(declared ?? {}).find((name) => name.toLowerCase() === lowercase) ?? lowercase;
}

function headerProblem(keyword: string, params: Record<string, unknown>): string {
  if (keyword === "required") return "is required";
  if (keyword === "maxLength") return `is longer than ${String(params.limit)} characters`;
  return "is not well-formed";
}

function validationRefusal(error: FastifyError, request: FastifyRequest): Xs2aError {
  const first = error.validation?.[0];
  const context = error.validationContext;
  const origin = context === "querystring" || context === "headers" ? ORIGINS[context] : "body";
  if (!first) return formatError(origin, "", error.message);
  const params = first.params as Record<string, unknown>;
  if (origin === "header") {
    const name = headerName(request, String(params.missingProperty ?? first.instancePath.slice(1)));
    return formatError(origin, name, `${name} ${headerProblem(first.keyword, params)}.`);
  }
  if (first.keyword === "required") {
    const path = fieldPath(first.instancePath, params.missingProperty);
    return formatError(origin, path, `${path} is required.`);
  }
  if (first.keyword === "additionalProperties") {
    const path = fieldPath(first.instancePath, params.additionalProperty);
    return formatError(origin, path, `${path} is not a field this interface accepts.`);
  }
  const path = fieldPath(first.instancePath) || "body";
  return formatError(origin, path, `${path} ${first.message ?? "is invalid"}.`);
}

const bodyRequired = () => formatError("body", "body", "A JSON body is required.");

/** Fastify's own refusals (media type, size, malformed body) in Berlin Group form. */
function frameworkRefusal(error: FastifyError): Xs2aError | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return unsupportedMediaType();
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return payloadTooLarge();
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return bodyRequired();
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return formatError("body", "body", "The request is malformed.");
  }
  return undefined;
}

/** A header's value as sent once; absent, repeated or oversized values are not recorded. */
function headerText(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" && value.length <= 200 ? value : null;
}

/** openFinance 2.x answers these statuses without a body (its files' decline_406, _415, …). */
const BODILESS_2X = [406, 408, 415, 429, 500, 503];

function sendRefusal(reply: FastifyReply, error: Xs2aError): void {
  const field = messagesFieldOf(reply.request.url);
  const { status, body } = renderError(error, field);
  // A 429 always says when to come back, also where no rate limit set its own wait.
  if (status === 429 && !reply.hasHeader("Retry-After")) void reply.header("Retry-After", "1");
  const bodiless = field === "apiClientMessages" && BODILESS_2X.includes(status);
  void reply.code(status).send(bodiless ? undefined : body);
}

export interface ApiPluginOptions {
  bodyLimit: number;
  /** XML bodies (pain.001): their limits and the readers that parse and validate them. */
  xml: XmlBodyOptions;
  /** Registers the TPP; throws CERTIFICATE_BLOCKED for a TPP on the bank's stop-list. */
  ensureTpp: (tpp: TppIdentity) => Promise<void>;
  audit: (request: AuditRecord) => Promise<void>;
  certificates: CertificateSources;
  /** Whether every request must carry a Signature; one that is present is always verified. */
  requireSignature: boolean;
  /** Whether every /v2 request must carry x-jws-signature; one that is sent is always verified. */
  requireJwsSignature: boolean;
  /** Counts a TPP's request: 0 to proceed, else the seconds it must wait (429, Retry-After). */
  admitTpp: (tppId: string) => Promise<number>;
  /** OAuth access tokens on XS2A calls, where the bank runs its authorisation server. */
  bearer?: BearerOptions;
}

const ID_PARAMETER = /id$/i;

/** A route's first path parameter naming a resource (paymentId, consentId, accountId, ...). */
const idParameterOf = memoized((route: string) => route.split("/")
  .find((part) => part.startsWith(":") && ID_PARAMETER.test(part))?.slice(1));

/**
 * The resource a request names in its path; its route says which parameter, once per route. A
 * request no route matched names none (its only parameter is the not-found handler's `*`).
 */
function resourceOf(request: FastifyRequest): string | null {
  const route = request.routeOptions.url;
  const name = route === undefined ? undefined : idParameterOf(route);
  const params = request.params as Record<string, unknown> | null | undefined;
  const value = name === undefined ? undefined : params?.[name];
  return typeof value === "string" ? value : null;
}

const EMPTY = new Uint8Array(0);

/** The resource a creation answer names: its id is known only from the answer. */
const CREATED_ID = /"(?:paymentId|consentId|basketId)":"([^"]{1,100})"/;

export function installApiPlugin(app: FastifyInstance, options: ApiPluginOptions): void {
  app.decorateRequest("tpp", null as unknown as TppIdentity);
  app.decorateRequest("tppCertificate", null as unknown as Uint8Array);
  app.decorateRequest("resourceId", null);
  app.decorateRequest("audited", false);
  app.decorateRequest("rawBody", null);
  installJsonParser(app, options.bodyLimit);
  installXmlParser(app, options.xml);
  installTppChecks(app, options);
  if (options.bearer) installBearerCheck(app, options.bearer);
  installAuditHooks(app, options);
  installRefusals(app);
}

function installJsonParser(app: FastifyInstance, bodyLimit: number): void {
  // JSON only: Fastify's default text/plain parser would turn a text body into a 400, not a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit },
    (request, body, done) => {
      request.rawBody = body as Buffer;
      // Clients send an empty body with this type where the operation takes none (DELETE, ...).
      if (request.rawBody.length === 0) {
        const required = request.routeOptions.schema?.body !== undefined;
        done(required ? bodyRequired() : null, undefined);
        return;
      }
      try {
        done(null, parseJsonBody(request.rawBody.toString("utf8")));
      } catch {
        done(formatError("body", "body", "The body is not valid JSON."), undefined);
      }
    });
}

function installTppChecks(app: FastifyInstance, options: ApiPluginOptions): void {
  const identify = createIdentify(options.certificates);
  app.addHook("onRequest", async (request, reply) => {
    // Load balancer probes (health.ts) carry no certificate and reveal nothing of a TPP's.
    const { probe, oauth } = request.routeOptions.config;
    if (probe || oauth) return;
    request.resourceId = resourceOf(request);
    const verified = await identify(request);
    request.tpp = verified.identity;
    request.tppCertificate = verified.der;
    // The published API description is read by browsers and tools too, which send no X-Request-ID.
    if (!request.routeOptions.config.document) readRequestId(request);
    // Every request's address goes to the audit log: a malformed one is refused in any profile.
    readPsuIpAddress(request.headers);
    const role = request.routeOptions.config.role;
    if (role && !request.tpp.roles.includes(role)) {
      throw roleInvalid(role);
    }
    await options.ensureTpp(request.tpp);
    const retryAfter = await options.admitTpp(request.tpp.id);
    if (retryAfter > 0) {
      void reply.header("Retry-After", String(retryAfter));
      throw tppRateLimited();
    }
  });

  const { certificates } = options;
  const checkSignature = createSignatureCheck({ required: options.requireSignature, certificates });
  // Each interface signs its own way: 1.3 with Signature, 2.x with x-jws-signature.
  const checkJws = createJwsSignatureCheck({ required: options.requireJwsSignature, certificates });
  // After body parsing, so the Digest is checked against the bytes as they arrived.
  app.addHook("preValidation", async (request) => {
    if (request.routeOptions.config.probe || request.routeOptions.config.oauth) return;
    const check = isV2Path(request.url) ? checkJws : checkSignature;
    await check(request, request.rawBody ?? EMPTY);
  });
}

function installAuditHooks(app: FastifyInstance, options: ApiPluginOptions): void {
  const audit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.audited) return;
    request.audited = true;
    const record: AuditRecord = {
      tppId: request.tpp?.id ?? null, requestId: headerText(request, "x-request-id"),
      psuIp: headerText(request, "psu-ip-address"), method: request.method, path: request.url,
      resourceId: request.resourceId, status: reply.statusCode, ms: Math.round(reply.elapsedTime),
    };
    request.log.info({ tpp: record.tppId, resource: record.resourceId, method: record.method,
      url: record.path, status: record.status, ms: record.ms }, "request");
    await options.audit(record)
      .catch((err: unknown) => request.log.error({ err }, "audit log write failed"));
  };
  app.addHook("onResponse", audit);

  app.addHook("onSend", async (request, reply, payload) => {
    const id = request.headers["x-request-id"];
    // A malformed id is refused, not echoed: the answer carries nothing the bank did not check.
    if (typeof id === "string" && isUuid(id)) reply.header("X-Request-ID", id);
    const created = request.method === "POST" && typeof payload === "string"
      && reply.statusCode < 300;
    if (request.resourceId === null && created) {
      request.resourceId = CREATED_ID.exec(payload)?.[1] ?? null;
    }
    // Fastify runs no onResponse for an answer whose client has left: a payment it created
    // would have no record of its request. Such an answer is recorded as it is handed over.
    if (request.raw.socket.destroyed) void audit(request, reply);
  });
}

/** A route's path as a pattern over concrete paths: `:param` one segment, `*` the rest. */
function routePattern(url: string): RegExp {
  const parts = url.split("/").map((part) => part.startsWith(":") ? "[^/]+"
    : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("/")}$`);
}

/** The methods the routes registered from now on take at a concrete path. */
function methodIndex(app: FastifyInstance): (path: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook("onRoute", (route) => {
    routes.push({ pattern: routePattern(route.url), methods: [route.method].flat() });
  });
  return (path) => [...new Set(routes.filter((route) => route.pattern.test(path))
    .flatMap((route) => route.methods))].sort();
}

function installRefusals(app: FastifyInstance): void {
  const methodsAt = methodIndex(app);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof Xs2aError) return sendRefusal(reply, error);
    if (error.validation) return sendRefusal(reply, validationRefusal(error, request));
    const refusal = frameworkRefusal(error);
    if (refusal) return sendRefusal(reply, refusal);
    request.log.error({ err: error }, "request failed");
    sendRefusal(reply, internalError());
  });

  // The onRequest hooks above have run for unknown routes too: only known TPPs learn this.
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = methodsAt(path);
    if (allowed.length === 0) return sendRefusal(reply, endpointUnknown(request.method, path));
    const allow = allowed.join(", ");
    void reply.header("Allow", allow);
    sendRefusal(reply, methodNotAllowed(request.method, path, allow));
  });
}

const CLIENT_ERRORS: Readonly<Record<string, () => Xs2aError>> = {
  HPE_HEADER_OVERFLOW: headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: requestTimedOut,
};

/**
 * Errors Node meets before a request exists (headers over the limit, unparseable HTTP) are
 * answered in Berlin Group form too, then the connection closes: its byte stream is unusable.
 */
export function apiClientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const refusal = (CLIENT_ERRORS[error.code ?? ""] ?? malformedHttp)();
  const { status, body } = renderError(refusal);
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n`
      + "Content-Type: application/json\r\n"
      + `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy();
}

/** What makes two creating requests "the same" for idempotency: route, TPP headers and body. */
export function requestFingerprint(request: FastifyRequest, extra: unknown): string {
  return createHash("sha256").update(JSON.stringify([request.url, request.body, extra]))
    .digest("hex");
}
