/**
 * Our own OpenAPI 3.1 document, generated from the routes as registered (their JSON schemas and
 * the role each needs), so it is never out of date: an onRoute hook collects them, the document
 * is built once on first request. Served at GET {base}/openapi.json and as an HTML reference
 * page at GET {base}/reference, behind mTLS like every TPP route but without a role.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, RouteOptions } from "fastify";
import {
  documentedPaths, security, securitySchemes, type Documented, type OAuthFacts,
} from "./openapi-operations.js";
import {
  answerHeaders, pluginRefusals, readHeaders, refusalText, requestIdSchema, type OperationFacts,
} from "./openapi-rules.js";
import { REDIRECT, type ApiProfile, type Presenters } from "./profile.js";

type Json = Record<string, unknown>;

/**
 * `xml`: the operation also takes an ISO 20022 document (src/api/xml/body.ts); `otherAnswers`:
 * the media types its 200 also comes in, each with what it is.
 */
interface CollectedRoute extends OperationFacts {
  schema: Json; xml: boolean; otherAnswers: Readonly<Record<string, string>>;
}

const PAIN_001_BODY = {
  schema: {
    type: "string",
    description: "pain.001.001.03 or pain.001.001.09, for the pain.001-* payment products",
  },
};

export interface OpenApiOptions {
  base: string;
  profile: ApiProfile;
  /** The profile's: which headers a 201 carries. */
  presenters: Presenters;
  title: string;
  version: string;
  /** PUBLIC_API_URL, or the URL listened on: known only after listening with port 0. */
  apiUrl: () => string;
  /** Where the bank offers the oauth approach: its authorisation server's tokens. */
  oauth?: OAuthFacts;
}

const ROLE_NAMES: Readonly<Record<string, string>> = {
  PSP_AI: "account information", PSP_PI: "payment initiation", PSP_IC: "funds confirmation",
};

/** Fastify's /a/:id → OpenAPI's /a/{id}. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_-]+)/g, "{$1}");

function parameters(route: CollectedRoute): Json[] {
  const path = [...route.url.matchAll(/:([A-Za-z0-9_-]+)/g)].map((m) => ({
    name: m[1], in: "path", required: true, schema: { type: "string" },
  }));
  const query = (route.schema.querystring as Json | undefined)?.properties as Json | undefined;
  const queryParameters = Object.entries(query ?? {}).map(([name, schema]) =>
    ({ name, in: "query", required: false, schema }));
  const requestId = route.probe ? [] : [{
    name: "X-Request-ID", in: "header", required: !route.document, schema: requestIdSchema,
  }];
  const headers = route.schema.headers as { properties?: Json; required?: string[] } | undefined;
  const headerParameters = Object.entries(headers?.properties ?? {}).map(([name, schema]) =>
    ({ name, in: "header", required: headers?.required?.includes(name) ?? false, schema }));
  // The route's own header schema (the profile's required headers) wins over the general rules.
  const declared = new Set(headerParameters.map((p) => p.name.toLowerCase()));
  const read = readHeaders(route).filter((p) => !declared.has(String(p.name).toLowerCase()));
  return [...path, ...queryParameters, ...requestId, ...headerParameters, ...read];
}

/** Status → schema: the route's, the plugin's refusals, and the empty answers a route sends. */
function statuses(route: CollectedRoute): Record<string, object | null> {
  const declared = (route.schema.response ?? {}) as Record<string, object>;
  const all: Record<string, object | null> = { ...pluginRefusals(route), ...declared };
  // A DELETE that completes at once answers 204 (a payment's that waits for the PSU, 202).
  if (route.method === "DELETE") all["204"] = null;
  else if (Object.keys(declared).every((status) => Number(status) >= 300)) all["200"] = null;
  return all;
}

function responses(route: CollectedRoute, presenters: Presenters): Json {
  const names = Object.keys(presenters.createdHeaders("", REDIRECT));
  const created = Object.fromEntries(names.map((name) => [name, { schema: { type: "string" } }]));
  const out: Json = {};
  const sorted = Object.entries(statuses(route)).sort(([a], [b]) => a.localeCompare(b));
  for (const [status, schema] of sorted) {
    const headers = { ...answerHeaders(route, status), ...(status === "201" ? created : {}) };
    out[status] = {
      description: Number(status) < 400 ? "Success" : refusalText(status),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...answerContent(route, status, schema),
    };
  }
  return out;
}

/** JSON where the route has a schema; a 200 also in each of the route's other media types. */
function answerContent(route: CollectedRoute, status: string, schema: object | null): Json {
  const json = schema ? { "application/json": { schema } } : {};
  const others = status !== "200" ? [] : Object.entries(route.otherAnswers).map(([media, what]) =>
    [media, { schema: { type: "string", description: `${what}, to Accept: ${media}` } }]);
  const content = { ...json, ...Object.fromEntries(others) };
  return Object.keys(content).length > 0 ? { content } : {};
}

/** An initiation's product takes one media type; other routes JSON, and XML where they say. */
function requestContent(route: CollectedRoute, body: unknown, only: string | undefined): Json {
  const json = { "application/json": { schema: body } };
  const xml = { "application/xml": PAIN_001_BODY };
  if (only) return only === "application/xml" ? xml : json;
  return route.xml ? { ...json, ...xml } : json;
}

/** A body is required where the route's schema has one; elsewhere none is read. */
function operation(
  route: CollectedRoute, documented: Documented, options: OpenApiOptions,
): Json {
  const body = route.schema.body;
  const tags = route.role === undefined ? { tags: ["service"] }
    : { tags: [ROLE_NAMES[route.role] ?? route.role], "x-psd2-role": route.role };
  const { description } = route.schema;
  const content = requestContent(route, body, documented.bodyMedia);
  return {
    operationId: documented.operationId,
    summary: `${route.method} ${documented.path}`,
    ...(typeof description === "string" ? { description } : {}),
    ...tags,
    security: security(route, options.base, options.oauth),
    parameters: parameters(route).filter((p) => p.in !== "path"
      || documented.path.includes(`{${String(p.name)}}`)),
    ...(body ? { requestBody: { required: true, content } } : {}),
    responses: responses(route, options.presenters),
  };
}

const PROFILE_TEXT: Readonly<Record<ApiProfile, string>> = {
  "berlin-group": "Strict Berlin Group NextGenPSD2 1.3.12 wire shapes (API_PROFILE=berlin-group).",
  spec: "The interface specification's dialect (API_PROFILE=spec).",
};
/** The operationIds are the standard's (openapi-operations.ts); its file asks for attribution. */
const ATTRIBUTION = "Operation names follow the NextGenPSD2 XS2A Framework OpenAPI file of "
  + "The Berlin Group (berlin-group.org), licensed CC BY 4.0.";

function buildDocument(routes: CollectedRoute[], options: OpenApiOptions): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    for (const documented of documentedPaths(route, options.base, openApiPath(route.url))) {
      const { path } = documented;
      paths[path] = {
        ...paths[path], [route.method.toLowerCase()]: operation(route, documented, options),
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: options.title, version: options.version,
      description: `${PROFILE_TEXT[options.profile]} ${ATTRIBUTION}`,
      // The document is generated from this project's own routes and schemas.
      license: { name: "Apache License 2.0", identifier: "Apache-2.0" },
      "x-api-profile": options.profile,
    },
    servers: [{ url: options.apiUrl(), description: "The TPP API (mutual TLS)" }],
    paths,
    components: { securitySchemes: securitySchemes(options.oauth) },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem}"
  + "pre{background:#f4f4f4;padding:.5rem;overflow:auto}"
  + "h2{border-top:1px solid #ccc;padding-top:1rem}";
/** No script, no external asset: the page's only style is allowed by its hash. */
const CSP = "default-src 'none'; "
  + `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; `
  + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const textHtml = (value: unknown) => escapeHtml(String(value));
const jsonHtml = (value: unknown) => escapeHtml(JSON.stringify(value, null, 2));

function operationSection(path: string, method: string, op: Json): string {
  const params = (op.parameters as Json[]).map((p) => `<li><code>${textHtml(p.name)}</code> `
    + `(${textHtml(p.in)}${p.required ? ", required" : ""})</li>`);
  const requestBody = op.requestBody as Json | undefined;
  // A pain.001 product's body is XML only.
  const bodySchema = requestBody && Object.values(requestBody.content as Json)[0];
  const body = requestBody ? `<h3>Request body</h3><pre>${jsonHtml(bodySchema)}</pre>` : "";
  const answers = Object.entries(op.responses as Json).map(([status, r]) =>
    `<h4>${escapeHtml(status)}</h4><pre>${jsonHtml((r as Json).content ?? {})}</pre>`);
  const role = op["x-psd2-role"] ? ` (role ${textHtml(op["x-psd2-role"])})` : "";
  return `<section><h2>${method.toUpperCase()} <code>${escapeHtml(path)}</code></h2>`
    + `<p>${textHtml((op.tags as string[])[0])}${role}</p>`
    + `<h3>Parameters</h3><ul>${params.join("")}</ul>${body}`
    + `<h3>Responses</h3>${answers.join("")}</section>`;
}

function referencePage(document: Json): string {
  const info = document.info as Json;
  const sections: string[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      sections.push(operationSection(path, method, op));
    }
  }
  return '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    + `<title>${textHtml(info.title)}</title><style>${STYLE}</style></head><body>`
    + `<h1>${textHtml(info.title)} ${textHtml(info.version)}</h1>`
    + `<p>${textHtml(info.description)} `
    + 'Machine-readable: <a href="openapi.json">openapi.json</a>.</p>'
    + `${sections.join("")}</body></html>`;
}

/**
 * Call before any route is registered; the routes serving the document are added at once.
 * Returns the document's builder, for tools that need it without a request (client/write-types).
 */
export function openApiRoutes(app: FastifyInstance, options: OpenApiOptions): () => Json {
  const routes: CollectedRoute[] = [];
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as {
      role?: string; document?: boolean; probe?: boolean; xml?: boolean;
      otherAnswers?: Readonly<Record<string, string>>;
    };
    for (const method of methods) {
      // HEAD is Fastify's automatic twin of each GET.
      if (method === "HEAD") continue;
      routes.push({
        method, url: route.url, schema: (route.schema ?? {}) as Json, role: config.role,
        document: config.document === true, probe: config.probe === true,
        xml: config.xml === true, otherAnswers: config.otherAnswers ?? {},
      });
    }
  });
  let document: Json | undefined;
  const built = () => (document ??= buildDocument(routes, options));
  documentRoutes(app, options.base, built);
  return built;
}

/** GET {base}/openapi.json and its HTML reference page, GET {base}/reference. */
export function documentRoutes(app: FastifyInstance, base: string, built: () => Json): void {
  let page: string | undefined;
  const config = { document: true };
  app.get(`${base}/openapi.json`, { config }, async () => built());
  app.get(`${base}/reference`, { config }, async (_request, reply) => {
    page ??= referencePage(built());
    return reply.type("text/html; charset=utf-8").header("Content-Security-Policy", CSP).send(page);
  });
}
