/**
 * The TPP-facing server's common ground: the client certificate → TPP identity on every request
 * (failing closed), the role each route needs, X-Request-ID required and echoed, JSON bodies
 * parsed without float rounding, and every refusal rendered as Berlin Group tppMessages.
 */
import { createHash } from "node:crypto";
import type { TLSSocket } from "node:tls";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AuditRecord } from "../domain/audit.js";
import { formatError, Xs2aError } from "../domain/errors.js";
import { isUuid } from "../lib/ids.js";
import { parseJsonBody } from "../lib/json-body.js";
import { parseTppCertificate, type PspRole, type TppIdentity } from "../tpp/certificate.js";
import { renderError } from "./errors.js";
import { single } from "./headers.js";

declare module "fastify" {
  interface FastifyRequest { tpp: TppIdentity; resourceId: string | null }
  interface FastifyContextConfig { role?: PspRole; probe?: boolean }
}

type CertificateCheck = { ok: true; identity: TppIdentity } | { ok: false; error: Xs2aError };

/** Parsing a certificate costs more than serving a read; a keep-alive connection does it once. */
const checkedSockets = new WeakMap<TLSSocket, CertificateCheck>();

function checkCertificate(socket: TLSSocket): CertificateCheck {
  const peer = socket.getPeerX509Certificate?.();
  const refuse = (code: "CERTIFICATE_MISSING" | "CERTIFICATE_INVALID" | "CERTIFICATE_EXPIRED", text: string) =>
    ({ ok: false, error: new Xs2aError(code, "certificate", text) }) as const;
  if (!peer) return refuse("CERTIFICATE_MISSING", "A client certificate (QWAC) is required on every call.");
  if (!socket.authorized) {
    const reason = String(socket.authorizationError ?? "");
    if (reason === "CERT_HAS_EXPIRED" || reason === "CERT_NOT_YET_VALID") {
      return refuse("CERTIFICATE_EXPIRED", "The client certificate is outside its validity period.");
    }
    return refuse("CERTIFICATE_INVALID", "The client certificate is not issued by a trusted CA.");
  }
  const parsed = parseTppCertificate(new Uint8Array(peer.raw));
  if (!parsed.ok) return refuse("CERTIFICATE_INVALID", `The client certificate is not a PSD2 QWAC: ${parsed.problem.reason}.`);
  return { ok: true, identity: parsed.identity };
}

function identify(request: FastifyRequest): TppIdentity {
  const socket = request.raw.socket as TLSSocket;
  let check = checkedSockets.get(socket);
  if (!check) {
    check = checkCertificate(socket);
    checkedSockets.set(socket, check);
  }
  if (!check.ok) throw check.error;
  return check.identity;
}

function readRequestId(request: FastifyRequest): string {
  const id = single(request.headers, "X-Request-ID");
  if (id === undefined) throw formatError("header", "X-Request-ID", "X-Request-ID is required on every request.");
  if (!isUuid(id)) throw formatError("header", "X-Request-ID", "X-Request-ID must be a UUID.");
  return id;
}

/** ajv's instancePath "/instructedAmount/amount" → "instructedAmount.amount". */
function fieldPath(instancePath: string, child?: unknown): string {
  const path = instancePath.replace(/^\//, "").replace(/\/(\d+)(?=\/|$)/g, "[$1]").replace(/\//g, ".");
  if (typeof child !== "string") return path;
  return path ? `${path}.${child}` : child;
}

function validationRefusal(error: FastifyError): Xs2aError {
  const first = error.validation?.[0];
  const origin = error.validationContext === "querystring" ? "query" : "body";
  if (!first) return formatError(origin, "", error.message);
  const params = first.params as Record<string, unknown>;
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

/** Fastify's own refusals (media type, size, malformed body) in Berlin Group form. */
function frameworkRefusal(error: FastifyError): Xs2aError | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new Xs2aError("UNSUPPORTED_MEDIA_TYPE", "header", "Content-Type must be application/json.", "Content-Type");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new Xs2aError("PAYLOAD_TOO_LARGE", "body", "The request body is too large.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return formatError("body", "body", "A JSON body is required.");
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

function sendRefusal(reply: FastifyReply, error: Xs2aError): void {
  const { status, body } = renderError(error);
  void reply.code(status).send(body);
}

export interface ApiPluginOptions {
  bodyLimit: number;
  ensureTpp: (tpp: TppIdentity) => Promise<void>;
  audit: (request: AuditRecord) => Promise<void>;
}

/** The resource a request names in its path (paymentId, consentId, account-id, ...). */
function resourceOf(params: unknown): string | null {
  if (typeof params !== "object" || params === null) return null;
  const found = Object.entries(params).find(([name]) => /id$/i.test(name));
  return typeof found?.[1] === "string" ? found[1] : null;
}

/** The resource a creation answer names: its id is known only from the answer. */
const CREATED_ID = /"(?:paymentId|consentId)":"([^"]{1,100})"/;

export function installApiPlugin(app: FastifyInstance, options: ApiPluginOptions): void {
  app.decorateRequest("tpp", null as unknown as TppIdentity);
  app.decorateRequest("resourceId", null);
  // JSON only: Fastify's default text/plain parser would turn a text body into a 400, not a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: options.bodyLimit },
    (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as string));
      } catch {
        done(formatError("body", "body", "The body is not valid JSON."), undefined);
      }
    });

  app.addHook("onRequest", async (request) => {
    // Load balancer probes (health.ts) carry no certificate and reveal nothing of a TPP's.
    if (request.routeOptions.config.probe) return;
    request.resourceId = resourceOf(request.params);
    request.tpp = identify(request);
    await options.ensureTpp(request.tpp);
    readRequestId(request);
    const role = request.routeOptions.config.role;
    if (role && !request.tpp.roles.includes(role)) {
      throw new Xs2aError("ROLE_INVALID", "certificate", `This service needs the PSD2 role ${role}, which the certificate does not carry.`);
    }
  });

  app.addHook("onResponse", async (request, reply) => {
    const record: AuditRecord = {
      tppId: request.tpp?.id ?? null, requestId: headerText(request, "x-request-id"),
      psuIp: headerText(request, "psu-ip-address"), method: request.method, path: request.url,
      resourceId: request.resourceId, status: reply.statusCode, ms: Math.round(reply.elapsedTime),
    };
    request.log.info({ tpp: record.tppId, resource: record.resourceId, method: record.method, url: record.path,
      status: record.status, ms: record.ms }, "request");
    await options.audit(record).catch((err: unknown) => request.log.error({ err }, "audit log write failed"));
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const id = request.headers["x-request-id"];
    if (typeof id === "string") reply.header("X-Request-ID", id);
    if (request.resourceId === null && request.method === "POST" && typeof payload === "string" && reply.statusCode < 300) {
      request.resourceId = CREATED_ID.exec(payload)?.[1] ?? null;
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof Xs2aError) return sendRefusal(reply, error);
    if (error.validation) return sendRefusal(reply, validationRefusal(error));
    const refusal = frameworkRefusal(error);
    if (refusal) return sendRefusal(reply, refusal);
    request.log.error({ err: error }, "request failed");
    void reply.code(500).send({
      tppMessages: [{ category: "ERROR", code: "INTERNAL_ERROR", text: "The bank could not process the request; try again later." }],
    });
  });

  // The onRequest hooks above have run for unknown routes too: only known TPPs learn this.
  app.setNotFoundHandler(async (request, reply) => {
    sendRefusal(reply, new Xs2aError("RESOURCE_UNKNOWN", "path", `${request.method} ${request.url.split("?")[0]} is not an endpoint of this interface.`));
  });
}

/** What makes two creating requests "the same" for idempotency: route, TPP headers and body. */
export function requestFingerprint(request: FastifyRequest, extra: unknown): string {
  return createHash("sha256").update(JSON.stringify([request.url, request.body, extra])).digest("hex");
}
