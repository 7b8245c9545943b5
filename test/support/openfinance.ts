/**
 * Checks an exchange on /psd2/v2 against the openFinance API Framework OpenAPI files the project
 * keeps (schemas/openfinance/, CC BY 4.0, unmodified; SOURCE.txt there), as berlin-group.ts does
 * for /v1 against NextGenPSD2 1.3.12: the operation its method and path name, the answer's status,
 * required headers and body, and the headers and body of every accepted request.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parsedYaml } from "./parsed-yaml.js";
import {
  checkWith, escape, headerViolations, jsonSchemaAt, locate, toJsonSchema, type Exchange,
  type Operation,
} from "./berlin-group.js";

type Node = Record<string, unknown>;

const FOLDER = fileURLToPath(new URL("../../../schemas/openfinance/", import.meta.url));
/** The files' servers end in /psd2, as ours do: /psd2/v2/accounts is /v2/accounts there. */
const PREFIX = "/psd2";
const DOCUMENT = /^\/psd2\/v2\/(openapi\.json|reference)$/;

interface File { name: string; document: Node; ajv: Ajv; operations: Operation[] }

/**
 * A path parameter is one segment, except the generic authorisation's {resource-path}, which the
 * Consent file writes as "{service}/{product-type}" (consents/account-access); each is captured.
 */
function patternOf(template: string): RegExp {
  return new RegExp(`^${template.replace(/\{resource-path\}/g, "([^/]+(?:/[^/]+)?)")
    .replace(/\{[^}]+\}/g, "([^/]+)")}$`);
}

/** The values a path parameter's schema allows, when it lists them (payment-service, …). */
function enumOf(file: File, operation: Operation, name: string): unknown[] | undefined {
  const count = ((operation.op.parameters ?? []) as Node[]).length;
  for (let i = 0; i < count; i++) {
    const at = `${operation.pointer}/parameters/${i}`;
    const declared = locate(file.document, at).node;
    if (declared.in === "path" && declared.name === name && declared.schema) {
      return locate(file.document, `${at}/schema`).node.enum as unknown[] | undefined;
    }
  }
  return undefined;
}

/**
 * Whether the path is one of the operation's: its pattern matches and each parameter whose
 * values the file lists has one of them (so /status is no {authorisation-category}).
 */
function fits(file: File, operation: Operation, path: string): boolean {
  const values = operation.pattern.exec(path)?.slice(1);
  if (!values) return false;
  const names = [...operation.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  return names.every((name, i) => enumOf(file, operation, name)?.includes(values[i]) ?? true);
}

/** The file that has a path under the first segment (/v2/payments/…): PIS for payments. */
const owns = (file: File, path: string) => file.operations.some((o) =>
  o.template.startsWith(`/v2/${path.split("/")[2]}/`));

/** Fewer parameters first, then more literal text, then the file owning the path's service. */
function specificity(file: File, operation: Operation, path: string): number[] {
  const { template } = operation;
  return [template.match(/\{/g)?.length ?? 0, -template.replace(/\{[^}]+\}/g, "").length,
    owns(file, path) ? 0 : 1];
}

const before = (a: number[], b: number[]) =>
  a.map((v, i) => v - (b[i] ?? 0)).find((d) => d !== 0) ?? 0;

function loadFile(name: string): File {
  const document = toJsonSchema(parsedYaml(join(FOLDER, name))) as Node;
  const ajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true, unicodeRegExp: false });
  addFormats.default(ajv);
  ajv.addFormat("url", true);
  ajv.addSchema(document, name);
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths as Node)) {
    for (const [method, op] of Object.entries(item as Node)) {
      operations.push({ template: template.trim(), pattern: patternOf(template.trim()),
        method: method.toUpperCase(), op: op as Node, pointer: `#/paths/${escape(template)}/${method}` });
    }
  }
  return { name, document, ajv, operations };
}

let files: File[] | undefined;
const loaded = () =>
  files ??= readdirSync(FOLDER).filter((n) => n.endsWith(".yaml")).sort().map(loadFile);
const compiled = new Map<string, ValidateFunction>();

function checker(file: File) {
  return (ref: string, value: unknown, what: string) => {
    const key = `${file.name}${ref}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = file.ajv.compile({ $ref: `${file.name}${ref}` });
      compiled.set(key, validate);
    }
    return checkWith(validate, `${file.name}${ref}`, value, what);
  };
}

/** Every way the exchange departs from the openFinance files; empty when it conforms. */
export function openFinanceViolations(exchange: Exchange): string[] {
  const path = exchange.path.split("?")[0]!;
  // The interface's own description (v2-openapi.test.ts) is no operation of the files.
  if (!path.startsWith(`${PREFIX}/v2/`) || DOCUMENT.test(path)) return [];
  // Only here: parsing the files costs a second, which a test process of /v1 calls never needs.
  loaded();
  const ofPath = path.slice(PREFIX.length);
  const name = `${exchange.method} ${path} → ${exchange.status}`;
  const candidates = (matches: (file: File, o: Operation) => boolean) => files!.flatMap((file) =>
    file.operations.filter((o) => o.method === exchange.method && matches(file, o))
      .map((operation) => ({ file, operation })))
    .sort((a, b) => before(specificity(a.file, a.operation, ofPath),
      specificity(b.file, b.operation, ofPath)))[0];
  // A refusal of a value outside the file's enums (an unknown payment-product) is still an
  // answer of the operation whose pattern matches: its shape is checked there.
  const found = candidates((file, o) => fits(file, o, ofPath))
    ?? (exchange.status >= 400 ? candidates((_, o) => o.pattern.test(ofPath)) : undefined);
  if (!found) return [`${name}: no such operation in the openFinance files`];
  const { file, operation } = found;
  const check = checker(file);
  const status = String(exchange.status);
  if (!(operation.op.responses as Node)[status]) {
    return [`${name}: status ${status} is not an answer of ${String(operation.op.operationId)}`];
  }
  const violations: string[] = [];
  const at = `${operation.pointer}/responses/${status}`;
  const { node: response } = locate(file.document, at);
  for (const header of Object.keys((response.headers ?? {}) as Node)) {
    const { node: declared } = locate(file.document, `${at}/headers/${escape(header)}`);
    if (declared.required === true && exchange.headers[header.toLowerCase()] === undefined) {
      violations.push(`${name}: header ${header} is required`);
    }
  }
  const schema = jsonSchemaAt(file.document, at);
  if (schema) violations.push(...check(schema, exchange.body, name));
  else if (exchange.body !== undefined) violations.push(`${name}: a body where the file has none`);
  if (exchange.requestHeaders && exchange.status < 300) {
    violations.push(...headerViolations(operation, exchange.requestHeaders, `${name} (request)`,
      file.document, check));
  }
  if (operation.op.requestBody && exchange.status < 300 && exchange.requestBody !== undefined) {
    const requestSchema = jsonSchemaAt(file.document, `${operation.pointer}/requestBody`);
    if (requestSchema) {
      violations.push(...check(requestSchema, exchange.requestBody, `${name} (request)`));
    }
  }
  return violations;
}

/** A push the bank sent to a Client-Notification-URI: its headers and its body. */
export interface Push { headers: Record<string, string | string[] | undefined>; body: unknown }

/**
 * Every way a push departs from the PUSH 2.4 file's pushResourceStatus (the API client's
 * operation): its headers, its body, and any attribute the body has beyond the file's (which
 * the schema would let pass; 1.3's notificationId or resourceType, say).
 */
export function pushViolations(push: Push): string[] {
  const [found] = loaded().flatMap((file) => file.operations
    .filter((o) => o.op.operationId === "pushResourceStatus").map((operation) => ({ file, operation })));
  if (!found) return ["pushResourceStatus: no such operation in the openFinance files"];
  const { file, operation } = found;
  const check = checker(file);
  const at = jsonSchemaAt(file.document, `${operation.pointer}/requestBody`)!;
  const sent = Object.fromEntries(Object.entries(push.headers)
    .flatMap(([name, value]) => value === undefined ? [] : [[name, value]]));
  const declared = Object.keys(locate(file.document, at).node.properties as Node);
  const beyond = Object.keys(push.body as Node).filter((name) => !declared.includes(name))
    .map((name) => `push: ${name} is no attribute of pushResourceStatus`);
  return [...headerViolations(operation, sent, "push", file.document, check),
    ...check(at, push.body, "push"), ...beyond];
}
