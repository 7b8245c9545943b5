/**
 * The published OpenAPI document of /v2: the openFinance files' own operations (the copies in
 * schemas/openfinance/, CC BY 4.0, read from the JSON the build writes of them), restricted to
 * those the bank registers under its base. An onRoute hook collects the /v2 routes, whichever
 * module adds them; each is matched to the file operation its method and path name and published
 * under the route's own path (a generic segment the route fixes, such as {consent-category},
 * written out), with the components it references. Served as /v1's is (openapi.ts).
 */
import { readFileSync } from "node:fs";
import type { FastifyInstance, RouteOptions } from "fastify";
import { documentRoutes } from "../openapi.js";
import { security, securitySchemes, type OAuthFacts } from "../openapi-operations.js";
import type { OperationFacts } from "../openapi-rules.js";

type Json = Record<string, unknown>;
type Files = Readonly<Record<string, Json>>;

/** Written by `npm run build` (scripts/openfinance-json.mjs): file name → document. */
const FILES = new URL("./openfinance-files.json", import.meta.url);

export interface V2OpenApiOptions {
  base: string;
  title: string;
  apiUrl: () => string;
  oauth?: OAuthFacts;
}

interface FileOperation { file: string; template: string[]; method: string; op: Json }

/** A route matched to its file operation: which route segments each template segment covers. */
interface Match extends FileOperation { spans: string[][] }

const isParameter = (segment: string) => segment.startsWith("{");

/** The files' operations, their paths split below /v2 (the files' servers end in /psd2). */
function fileOperations(files: Files): FileOperation[] {
  return Object.entries(files).flatMap(([file, document]) =>
    Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        file, method: method.toUpperCase(), op: op as Json,
        template: path.trim().split("/").filter((s) => s !== "").slice(1),
      }))));
}

const normal = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Whether a route's parameter can be the template's: the same name, one inside the other
 * (:product, {payment-product}), or both an id (:consentId, {resourceId}). So a generic
 * template never takes an id for its {authorisation-category}.
 */
function sameParameter(segment: string, routeSegment: string): boolean {
  const [a, b] = [normal(segment), normal(routeSegment)];
  return a.includes(b) || b.includes(a) || (a.endsWith("id") && b.endsWith("id"));
}

/** Whether the route segments `taken` fit one template segment. */
function fits(segment: string, taken: string[]): boolean {
  const [first = ""] = taken;
  if (!isParameter(segment)) return taken.length === 1 && first === segment;
  // {resource-path} is a resource's own path: it starts with its name (consents, payments).
  if (taken.length === 2) return !first.startsWith(":");
  return !first.startsWith(":") || sameParameter(segment, first);
}

/**
 * Whether the operation's parameter `segment` allows the fixed `taken`: a parameter whose values
 * the file lists ({bulk-party-verification-endpoint}) takes only those.
 */
type Allows = (segment: string, taken: string[]) => boolean;

/** The route segments each template segment covers: {resource-path} one or two, fixed ones. */
function align(template: string[], route: string[], allows: Allows): string[][] | null {
  const [head, ...rest] = template;
  if (head === undefined) return route.length === 0 ? [] : null;
  for (const span of head === "{resource-path}" ? [1, 2] : [1]) {
    const taken = route.slice(0, span);
    const tail = taken.length === span && fits(head, taken) && allows(head, taken)
      ? align(rest, route.slice(span), allows) : null;
    if (tail) return [taken, ...tail];
  }
  return null;
}

/**
 * The file operation of a route: the most specific template (fewest parameters), and among the
 * generic ones shared by several files that of the file whose own paths start as the route's.
 */
function matchOf(files: Files, operations: FileOperation[], method: string, route: string[]):
  Match | null {
  const owns = (file: string) => operations.some((o) => o.file === file
    && o.template[0] === route[0]);
  const rank = (m: Match) => m.template.filter(isParameter).length * 2 + (owns(m.file) ? 0 : 1);
  const found = operations.filter((o) => o.method === method).flatMap((o) => {
    const spans = align(o.template, route, (segment, taken) => taken[0]!.startsWith(":")
      || listed(files, o, segment)?.includes(taken.join("/")) !== false);
    return spans ? [{ ...o, spans }] : [];
  });
  return found.sort((a, b) => rank(a) - rank(b) || a.file.localeCompare(b.file))[0] ?? null;
}

const pascal = (text: string) => text.split(/[^A-Za-z0-9]+/)
  .map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");

const componentOf = (ref: string) => /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);

function resolved(files: Files, file: string, node: Json): Json {
  const ref = typeof node.$ref === "string" ? componentOf(node.$ref) : null;
  if (!ref) return node;
  const components = files[file]?.components as Record<string, Json>;
  return structuredClone(components[ref[1]!]?.[ref[2]!] as Json);
}

const routeParameter = (segment: string) => `{${segment.slice(1)}}`;

/** The values the operation's path parameter `segment` lists, if it lists them. */
function listed(files: Files, o: FileOperation, segment: string): unknown[] | undefined {
  const declared = ((o.op.parameters ?? []) as Json[]).map((p) => resolved(files, o.file, p))
    .find((p) => p.in === "path" && `{${String(p.name)}}` === segment);
  const schema = declared?.schema as Json | undefined;
  return schema && resolved(files, o.file, schema).enum as unknown[] | undefined;
}

/**
 * The path the route is published under, the template parameters it fixes, and the route's own
 * parameters inside a fixed one ({resource-path} of payments/:product).
 */
function publishedPath(match: Match, base: string) {
  const fixed: { name: string; value: string }[] = [];
  const own: string[] = [];
  const segments = match.template.map((segment, i) => {
    const span = match.spans[i] ?? [];
    if (isParameter(segment) && span.length === 1 && span[0]!.startsWith(":")) return segment;
    if (isParameter(segment)) fixed.push({ name: segment.slice(1, -1), value: span.join("/") });
    own.push(...span.filter((s) => s.startsWith(":")).map((s) => s.slice(1)));
    return span.map((s) => (s.startsWith(":") ? routeParameter(s) : s)).join("/");
  });
  return { path: [base, ...segments].join("/"), fixed, own };
}

interface Published { file: string; path: string; method: string; op: Json }

/** The file's operation for the route, its fixed parameters left out and its name made unique. */
function publish(files: Files, match: Match, facts: OperationFacts, options: V2OpenApiOptions):
  Published {
  const { path, fixed, own } = publishedPath(match, options.base);
  const fixedNames = fixed.map((f) => f.name);
  const op = structuredClone(match.op);
  const ownParameters = own.map((name) =>
    ({ name, in: "path", required: true, schema: { type: "string" } }));
  op.parameters = [...ownParameters, ...((op.parameters ?? []) as Json[])
    .map((p) => resolved(files, match.file, p))
    .filter((p) => p.in !== "path" || !fixedNames.includes(String(p.name)))];
  // One generic operation serves several routes: each is named after what it fixes.
  const named = fixed.map((f) => f.value.replace(/:[^/]+/g, "")).join("-");
  op.operationId = `${String(op.operationId)}${pascal(named)}`;
  op.security = security(facts, options.base, options.oauth);
  if (facts.role) op["x-psd2-role"] = facts.role;
  return { file: match.file, path, method: match.method.toLowerCase(), op };
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((v) => refsIn(v, found));
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && componentOf(value)) found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

/** Every component `roots` reference in `file`, transitively: ref → its definition. */
function closure(files: Files, file: string, roots: unknown[]): Map<string, Json> {
  const found = new Map<string, Json>();
  const pending = roots.flatMap((root) => refsIn(root));
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (found.has(ref)) continue;
    const definition = resolved(files, file, { $ref: ref });
    found.set(ref, definition);
    pending.push(...refsIn(definition));
  }
  return found;
}

/**
 * The published operations and the components they reference. The files define every component
 * they share alike (a test checks it), so one name is one definition.
 */
function assemble(files: Files, published: Published[]) {
  const paths: Record<string, Json> = {};
  for (const p of published) paths[p.path] = { ...paths[p.path], [p.method]: p.op };
  const components: Record<string, Json> = {};
  for (const file of new Set(published.map((p) => p.file))) {
    const ops = published.filter((p) => p.file === file).map((p) => p.op);
    for (const [ref, definition] of closure(files, file, ops)) {
      const [, kind = "", key = ""] = componentOf(ref) ?? [];
      components[kind] = { ...components[kind], [key]: definition };
    }
  }
  return { paths, components };
}

/** The tags the operations name, as their files describe them. */
function tagsOf(files: Files, published: Published[]): Json[] {
  const used = new Set(published.flatMap((p) => (p.op.tags ?? []) as string[]));
  const all = Object.values(files).flatMap((d) => (d.tags ?? []) as Json[]);
  return [...used].sort().map((name) => all.find((t) => t.name === name) ?? { name });
}

const ATTRIBUTION = "The operations, parameters, answers and schemas are those of the openFinance "
  + "API Framework OpenAPI files of The Berlin Group (berlin-group.org), licensed CC BY 4.0 and "
  + "kept unmodified in this project's schemas/openfinance/; here restricted to the operations "
  + "this bank serves, each under the path it serves it at, and secured as the bank checks.";

function buildDocument(files: Files, routes: OperationFacts[], options: V2OpenApiOptions): Json {
  const operations = fileOperations(files);
  const published = routes.flatMap((route) => {
    const segments = route.url.slice(options.base.length + 1).split("/");
    const match = matchOf(files, operations, route.method, segments);
    return match ? [publish(files, match, route, options)] : [];
  });
  const { paths, components } = assemble(files, published);
  const used = [...new Set(published.map((p) => p.file))].sort();
  return {
    openapi: "3.1.0",
    info: {
      title: options.title, version: "v2", description: ATTRIBUTION,
      license: { name: "Creative Commons Attribution 4.0 International", identifier: "CC-BY-4.0" },
      "x-openfinance-files": used.map((file) => ({ file,
        title: (files[file]?.info as Json).title, version: (files[file]?.info as Json).version })),
    },
    servers: [{ url: options.apiUrl(), description: "The TPP API (mutual TLS)" }],
    tags: tagsOf(files, published),
    paths,
    components: { ...components, securitySchemes: securitySchemes(options.oauth) },
  };
}

/**
 * Call before the /v2 routes are registered: every route under `base` registered afterwards is
 * published. Returns the document's builder.
 */
export function v2OpenApiRoutes(app: FastifyInstance, options: V2OpenApiOptions): () => Json {
  const routes: OperationFacts[] = [];
  app.addHook("onRoute", (route: RouteOptions) => {
    const config = (route.config ?? {}) as { role?: string; document?: boolean };
    if (!route.url.startsWith(`${options.base}/`) || config.document) return;
    for (const method of [route.method].flat()) {
      // HEAD is Fastify's automatic twin of each GET.
      if (method !== "HEAD") {
        routes.push({ method, url: route.url, role: config.role, probe: false, document: false });
      }
    }
  });
  let document: Json | undefined;
  const built = () => (document ??= buildDocument(
    JSON.parse(readFileSync(FILES, "utf8")) as Files, routes, options));
  documentRoutes(app, options.base, built);
  return built;
}
