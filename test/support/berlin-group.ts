/**
 * Checks an exchange with the bank against the Berlin Group NextGenPSD2 1.3.12 OpenAPI file
 * (test/fixtures/berlin-group-psd2-api.yaml, CC BY 4.0, byte-exact; its SOURCE.txt says where it comes
 * from): the operation its method and path name, the
 * response's body against the schema of its status code, the headers that answer must carry, and
 * the headers and body of every accepted request against the operation's parameters and request
 * body schema.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parsedYaml } from "./parsed-yaml.js";

type Node = Record<string, unknown>;

export interface Exchange {
  method: string;
  /** The URL path as sent, with query. */
  path: string;
  /** As sent, in any case; absent: the request's headers are not checked. */
  requestHeaders?: Record<string, string | string[]>;
  requestBody: unknown;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Kept in the repository, so that the check runs from any clone; found above dist/ or test/. */
function yamlFile(): string {
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, "test", "fixtures", "berlin-group-psd2-api.yaml");
    if (existsSync(candidate)) return candidate;
  }
  throw new Error("test/fixtures/berlin-group-psd2-api.yaml not found above the test");
}
/** The servers of the file end in /psd2, as ours do: /psd2/v1/consents is /v1/consents there. */
const PREFIX = "/psd2";

/**
 * Ours, not Berlin Group operations: the published documents (src/api/openapi.ts), the EPC's
 * Verification of Payee responder (src/api/vop.ts), and the spec's
 * product-less payment reads (for any id: a bulk's entry id is refused there) and singular consent
 * status path, which both profiles serve; and funds-confirmation consents, which are Berlin
 * Group's PIIS 2.0, outside the 1.3.12 file.
 */
function isOwnPath(method: string, path: string): boolean {
  return [`${PREFIX}/v1/openapi.json`, `${PREFIX}/v1/reference`].includes(path)
    || path === "/vop/v1/payee-verifications"
    || path.startsWith(`${PREFIX}/v1/consents/confirmation-of-funds`)
    || (method === "GET" && /^\/psd2\/v1\/payments\/[^/]+(\/status)?$/.test(path))
    // A large report's download link: Berlin Group leaves its address to the bank.
    || (method === "GET" && /^\/psd2\/v1\/accounts\/[^/]+\/transactions\/download\/[^/]+$/.test(path))
    || /^(\/psd2\/v1)?\/consent\//.test(path);
}

/**
 * The file offers payment bodies as oneOf single/periodic/bulk, but without
 * additionalProperties a periodic body is a single one too: the path's payment-service decides.
 */
const BY_SERVICE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "initiatePayment request": {
    "payments": "paymentInitiation_json", "periodic-payments": "periodicPaymentInitiation_json",
    "bulk-payments": "bulkPaymentInitiation_json",
  },
  "getPaymentInformation response": {
    "payments": "paymentInitiationWithStatusResponse",
    "periodic-payments": "periodicPaymentInitiationWithStatusResponse",
    "bulk-payments": "bulkPaymentInitiationWithStatusResponse",
  },
};

function byService(operation: Operation, bgPath: string, part: "request" | "response"): string | undefined {
  const name = BY_SERVICE[`${String(operation.op.operationId)} ${part}`]?.[bgPath.split("/")[2] ?? ""];
  return name && `#/components/schemas/${name}`;
}

/**
 * An update of an authorisation answers oneOf five bodies that, without additionalProperties,
 * overlap: every answer matches several. The request's body says which one it is.
 */
function byUpdate(operation: Operation, requestBody: unknown): string | undefined {
  if (!/^update.*PsuData$/.test(String(operation.op.operationId))) return undefined;
  const body = (requestBody ?? {}) as Node;
  const name = body.psuData !== undefined ? "updatePsuAuthenticationResponse"
    : body.authenticationMethodId !== undefined ? "selectPsuAuthenticationMethodResponse"
      : body.scaAuthenticationData !== undefined ? "scaStatusResponse"
        : "updatePsuIdentificationResponse";
  return `#/components/schemas/${name}`;
}

/** OpenAPI 3.0 is draft-04-flavoured: boolean exclusiveMinimum and `nullable` need rewriting for Ajv. */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== "object" || node === null) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "boolean") continue;
    if (key === "example" || key === "examples") continue;
    out[key] = toJsonSchema(value);
  }
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

export interface Operation { template: string; pattern: RegExp; method: string; op: Node; pointer: string }

/**
 * What 1.3.16 adds for Verification of Payee, and nothing else of it (docs/tpp-guide.md): the statuses
 * RCVC, RVCM, RVNC and, on initiatePayment, the headers Client-VOP-Requested and
 * Client-VOP-Request-ID.
 */
function withVerificationOfPayee(document: Node): Node {
  const schemas = (document.components as Node).schemas as Node;
  const status = schemas.transactionStatus as { enum: string[] };
  status.enum.push("RCVC", "RVCM", "RVNC");
  for (const item of Object.values(document.paths as Node)) {
    const op = (item as Node).post as Node | undefined;
    if (op?.operationId !== "initiatePayment") continue;
    (op.parameters as Node[]).push(
      { name: "Client-VOP-Requested", in: "header", schema: { type: "boolean" } },
      { name: "Client-VOP-Request-ID", in: "header", schema: { type: "string" } });
  }
  return document;
}

function loadDocument() {
  const document = withVerificationOfPayee(
    toJsonSchema(parsedYaml(yamlFile())) as Node);
  const ajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true, unicodeRegExp: false });
  addFormats.default(ajv);
  // OpenAPI's "url" is a URI reference; Berlin Group uses it for links.
  ajv.addFormat("url", true);
  ajv.addSchema(document, "bg");
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths as Node)) {
    const pattern = new RegExp(`^${template.trim().replace(/\{[^}]+\}/g, "[^/]+")}$`);
    for (const [method, op] of Object.entries(item as Node)) {
      operations.push({
        template: template.trim(), pattern, method: method.toUpperCase(), op: op as Node,
        pointer: `#/paths/${escape(template)}/${method}`,
      });
    }
  }
  // A literal segment beats a parameter: /v1/consents/{id}/status before /v1/{service}/{product}/{id}.
  operations.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  return { document, ajv, operations };
}

let loaded: ReturnType<typeof loadDocument> | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(ref: string): ValidateFunction {
  let found = compiled.get(ref);
  if (!found) {
    found = loaded!.ajv.compile({ $ref: `bg${ref}` });
    compiled.set(ref, found);
  }
  return found;
}

function check(ref: string, value: unknown, what: string): string[] {
  return checkWith(validatorFor(ref), ref, value, what);
}

/** The rules `value` breaks, one line each; `ref` names the schema in the lines. */
export function checkWith(
  validate: ValidateFunction, ref: string, value: unknown, what: string,
): string[] {
  if (validate(value)) return [];
  // One line per rule broken, not per array element breaking it.
  const lines = (validate.errors ?? []).map((e) =>
    `${what}: ${e.instancePath.replace(/\/\d+(?=\/|$)/g, "/*") || "/"} ${e.message} (${ref}${e.schemaPath})`);
  return [...new Set(lines)];
}

export const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** The node at `pointer`, following $refs on the way and at the end; returns where it really lies. */
export function locate(document: Node, pointer: string): { node: Node; pointer: string } {
  let node = document;
  let at = "#";
  const follow = () => {
    while (typeof node?.$ref === "string") {
      at = node.$ref;
      node = at.slice(2).split("/").reduce<Node>((o, k) => o[k] as Node, document);
    }
  };
  for (const key of pointer.slice(2).split("/")) {
    node = node[key.replace(/~1/g, "/").replace(/~0/g, "~")] as Node;
    at = `${at}/${key}`;
    follow();
  }
  return { node, pointer: at };
}

/** The JSON schema pointer of a request body's or response's application/json content, if any. */
export function jsonSchemaAt(document: Node, pointer: string): string | undefined {
  const { node, pointer: at } = locate(document, pointer);
  const content = node.content as Node | undefined;
  if (!content?.["application/json"]) return undefined;
  return locate(document, `${at}/content/application~1json/schema`).pointer;
}

/** A header is text; OpenAPI's simple style writes a boolean or number parameter as its literal. */
export function typed(type: unknown, text: string): unknown {
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  const numeric = type === "integer" || type === "number";
  if (numeric && text.trim() !== "" && !Number.isNaN(Number(text))) return Number(text);
  return text;
}

/**
 * The request headers the operation declares: each required one present, each one sent valid
 * against its schema (X-Request-ID a UUID, PSU-IP-Address an IPv4 address, ...).
 */
export function headerViolations(
  operation: Operation, sent: Record<string, string | string[]>, name: string,
  document: Node = loaded!.document, checkAt = check,
): string[] {
  const values = new Map(Object.entries(sent).map(([h, value]) => [h.toLowerCase(), value]));
  const violations: string[] = [];
  const declared = (operation.op.parameters ?? []) as Node[];
  declared.forEach((_, i) => {
    const { node: parameter, pointer } = locate(document, `${operation.pointer}/parameters/${i}`);
    if (parameter.in !== "header") return;
    const header = String(parameter.name);
    const value = values.get(header.toLowerCase());
    if (value === undefined) {
      if (parameter.required === true) violations.push(`${name}: header ${header} is required`);
      return;
    }
    const { node: schema, pointer: at } = locate(document, `${pointer}/schema`);
    for (const one of Array.isArray(value) ? value : [value]) {
      violations.push(...checkAt(at, typed(schema.type, one), `${name} header ${header}`));
    }
  });
  return violations;
}

/** Every way the exchange departs from the Berlin Group file; empty when it conforms. */
/**
 * `requests`: also the body of every accepted request (false where a test sends the spec's
 * dialect); its headers are checked whenever the exchange carries them.
 */
function isXml(type: unknown): boolean {
  return /^(application|text)\/xml\b/.test(String(type ?? ""));
}

export function berlinGroupViolations(exchange: Exchange, requests = true): string[] {
  loaded ??= loadDocument();
  const { document, operations } = loaded;
  const path = exchange.path.split("?")[0]!;
  if (!path.startsWith(`${PREFIX}/v1/`) || isOwnPath(exchange.method, path)) return [];
  const bgPath = path.slice(PREFIX.length);
  const operation = operations.find((o) => o.method === exchange.method && o.pattern.test(bgPath));
  const name = `${exchange.method} ${path} → ${exchange.status}`;
  if (!operation) return [`${name}: no such operation in the Berlin Group file`];
  const status = String(exchange.status);
  if (!(operation.op.responses as Node)[status]) return [`${name}: status ${status} is not an answer of ${operation.op.operationId}`];
  const violations: string[] = [];
  const responsePointer = `${operation.pointer}/responses/${status}`;
  const { node: response } = locate(document, responsePointer);
  for (const header of Object.keys((response.headers ?? {}) as Node)) {
    const { node: declared } = locate(document, `${responsePointer}/headers/${escape(header)}`);
    if (declared.required === true && exchange.headers[header.toLowerCase()] === undefined) {
      violations.push(`${name}: header ${header} is required`);
    }
  }
  const schema = (status === "200"
    ? byService(operation, bgPath, "response") ?? byUpdate(operation, exchange.requestBody)
    : undefined) ?? jsonSchemaAt(document, responsePointer);
  // ISO 20022 documents (pain.001 in, pain.002 out) are judged by xmllint against their XSD.
  const xmlAnswer = isXml(exchange.headers["content-type"]);
  if (schema && !xmlAnswer) violations.push(...check(schema, exchange.body, name));
  else if (exchange.body !== undefined) violations.push(`${name}: a body where the file has none`);
  if (exchange.requestHeaders && exchange.status < 300) {
    violations.push(...headerViolations(operation, exchange.requestHeaders, `${name} (request)`));
  }
  const sentXml = isXml(exchange.requestHeaders?.["Content-Type"]);
  if (requests && operation.op.requestBody && exchange.status < 300 && !sentXml) {
    const requestSchema = byService(operation, bgPath, "request") ?? jsonSchemaAt(document, `${operation.pointer}/requestBody`);
    if (requestSchema) violations.push(...check(requestSchema, exchange.requestBody, `${name} (request)`));
  }
  return violations;
}
