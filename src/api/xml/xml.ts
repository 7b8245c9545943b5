/**
 * XML text in and out through fast-xml-parser, never by string surgery. No entity is ever
 * expanded: a document declaring a DOCTYPE (and so any ENTITY, internal or external) is refused
 * before parsing, which shuts out XXE and billion laughs whatever the parser would do.
 */
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";

/** Why a body is not an XML document this bank reads; `declaration` marks a DOCTYPE/ENTITY. */
export class XmlRefused extends Error {
  constructor(message: string, readonly declaration: boolean) {
    super(message);
  }
}

// Case-insensitive: libxml2 refuses "<!doctype", but a lenient parser elsewhere may not.
const DECLARATION = /<!(?:DOCTYPE|ENTITY)/i;

/** Elements by local name; attributes under "@_"; text of mixed elements under "#text". */
export type XmlNode = { [name: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlValue[];

// The five references XML predefines and character references: plain substitution, never a
// declared entity, so nothing can grow or reach outside the document.
const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/g;

function unescapeText(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (whole, name?: string, decimal?: string, hex?: string) => {
    if (name !== undefined) return PREDEFINED[name] ?? whole;
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex ?? "", 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: "@_", removeNSPrefix: true,
  processEntities: false, htmlEntities: false, parseTagValue: false, parseAttributeValue: false,
  trimValues: true, ignoreDeclaration: true, ignorePiTags: true,
  tagValueProcessor: (_name, value) => unescapeText(value),
  attributeValueProcessor: (_name, value) => unescapeText(value),
});

/** Parses a document; throws XmlRefused for a declaration or for text that is not well-formed. */
export function parseXml(text: string): XmlNode {
  if (DECLARATION.test(text)) {
    throw new XmlRefused("The document declares a DOCTYPE or ENTITY, which this bank refuses.",
      true);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line } = valid.err;
    throw new XmlRefused(`The body is not well-formed XML (line ${line}: ${msg})`, false);
  }
  const parsed = parsedBy(parser, text);
  if (Object.keys(parsed).length !== 1) {
    throw new XmlRefused("The body is not well-formed XML (one root element expected).", false);
  }
  return parsed;
}

/**
 * The parser's own limits (elements nested deeper than 100, names it cannot read) throw plain
 * errors after the validator passed: they are the document's fault, never the bank's.
 */
function parsedBy(reader: XMLParser, text: string): XmlNode {
  try {
    return reader.parse(text) as XmlNode;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new XmlRefused(`The body is not an XML document this bank reads (${why}).`, false);
  }
}

// Only the root's attributes matter here; a second, prefix-keeping pass reads its namespace.
const namespaceReader = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: "", processEntities: false, htmlEntities: false,
  ignoreDeclaration: true, ignorePiTags: true, parseTagValue: false,
});

/** The namespace of a well-formed document's root element (after parseXml accepted it). */
export function rootNamespace(text: string): string | undefined {
  const parsed = parsedBy(namespaceReader, text);
  const [name = ""] = Object.keys(parsed);
  const root = parsed[name];
  const prefix = name.includes(":") ? `xmlns:${name.split(":")[0]}` : "xmlns";
  const value = typeof root === "object" && !Array.isArray(root) ? root[prefix] : undefined;
  return typeof value === "string" ? value : undefined;
}

const builder = new XMLBuilder({
  ignoreAttributes: false, attributeNamePrefix: "@_", format: true, indentBy: "  ",
  suppressEmptyNode: true, processEntities: true,
});

/** A document with its XML declaration; text and attribute values are escaped by the builder. */
export function buildXml(root: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(root) as string}`;
}
