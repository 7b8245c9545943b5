/**
 * XML request bodies (ISO 20022 pain.001) on the operations that declare `config.xml`; any
 * other operation answers an XML body with 415, as it would any type it does not take. A body is
 * counted here (start tags, attributes) and read by the document readers (readers.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { formatError, unsupportedMediaType } from "../../domain/kernel/errors.js";
import type { ReadDocument } from "./document.js";
import type { XmlReaders } from "./readers.js";
import type { XmlNode } from "./xml.js";

/** A read XML body, kept apart from JSON bodies until its operation turns it into one. */
export class XmlBody implements ReadDocument {
  readonly document: XmlNode;
  readonly namespace: string | undefined;
  /** The first XSD violation of a pain.001 version this bank knows; null when valid or unknown. */
  readonly violation: string | null;

  constructor(read: ReadDocument) {
    this.document = read.document;
    this.namespace = read.namespace;
    this.violation = read.violation;
  }
}

declare module "fastify" {
  /**
   * `xml`: takes a pain.001 body; `otherAnswers`: the media types its 200 also comes in, to the
   * Accept that asks for them, each with what it is (for the OpenAPI document).
   */
  interface FastifyContextConfig { xml?: boolean; otherAnswers?: Readonly<Record<string, string>> }
}

export interface XmlBodyOptions {
  bodyLimit: number;
  elementsMax: number;
  attributesMax: number;
  readers: XmlReaders;
}

const LT = 0x3c;
const EQUALS = 0x3d;
/** After "<": what makes it an end tag, a comment, CDATA, a declaration or an instruction. */
const NOT_START = new Set([0x2f, 0x21, 0x3f]);
const QUOTES = new Set([0x22, 0x27]);
const SPACES = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Whether `byte` occurs more than `max` times where `counts` says so; stops counting there. */
function exceeds(
  bytes: Buffer, byte: number, max: number, counts: (at: number) => boolean,
): boolean {
  let found = 0;
  for (let at = bytes.indexOf(byte); at !== -1; at = bytes.indexOf(byte, at + 1)) {
    if (counts(at + 1) && ++found > max) return true;
  }
  return false;
}

/** The first byte from `at` on that is not white space. */
function skipSpace(bytes: Buffer, at: number): number | undefined {
  let next = at;
  while (SPACES.has(bytes[next] ?? -1)) next += 1;
  return bytes[next];
}

// Counted on the bytes before any parser sees them (and off the JavaScript heap): a start tag is
// "<" before a name, an attribute "=" before a quote. Text outside tags counts too, which only
// errs on the safe side.
function checkCounts(bytes: Buffer, options: XmlBodyOptions): void {
  if (exceeds(bytes, LT, options.elementsMax, (at) => !NOT_START.has(bytes[at] ?? -1))) {
    throw formatError("body", "body",
      `The document has more than ${options.elementsMax} elements, the most this bank reads.`);
  }
  const quoted = (at: number) => QUOTES.has(skipSpace(bytes, at) ?? -1);
  if (exceeds(bytes, EQUALS, options.attributesMax, quoted)) {
    throw formatError("body", "body",
      `The document has more than ${options.attributesMax} attributes, the most this bank reads.`);
  }
}

export function installXmlParser(app: FastifyInstance, options: XmlBodyOptions): void {
  app.addContentTypeParser(["application/xml", "text/xml"],
    { parseAs: "buffer", bodyLimit: options.bodyLimit },
    async (request: FastifyRequest, body: Buffer) => {
      if (request.routeOptions.config.xml !== true) throw unsupportedMediaType();
      request.rawBody = body;
      checkCounts(body, options);
      return new XmlBody(await options.readers.read(body));
    });
}
