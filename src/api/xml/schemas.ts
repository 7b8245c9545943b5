/**
 * XSD validation of ISO 20022 documents with libxml2 compiled to WebAssembly (xmllint-wasm):
 * the schemas under schemas/iso20022 (see SOURCE.txt there), no native binding.
 */
import { readFileSync } from "node:fs";
import { validateXML } from "xmllint-wasm";

const DIRECTORY = new URL("../../../../schemas/iso20022/", import.meta.url);
const PREFIX = "urn:iso:std:iso:20022:tech:xsd:";

export const PAIN_001_VERSIONS = ["pain.001.001.03", "pain.001.001.09"] as const;
export type Pain001Version = (typeof PAIN_001_VERSIONS)[number];

const loaded = new Map<string, string>();

function schemaText(message: string): string {
  let text = loaded.get(message);
  if (text === undefined) {
    text = readFileSync(new URL(`${message}.xsd`, DIRECTORY), "utf8");
    loaded.set(message, text);
  }
  return text;
}

/** The message (e.g. "pain.001.001.09") a namespace names, when it is one of `known`. */
export function messageOf<T extends string>(
  namespace: string | undefined, known: readonly T[],
): T | undefined {
  return known.find((message) => namespace === PREFIX + message);
}

/** The first schema violation of a document as "line N: text", or null when it is valid. */
export async function schemaViolation(text: string, message: string): Promise<string | null> {
  const result = await validateXML({
    xml: [{ fileName: "document.xml", contents: text }],
    schema: [{ fileName: `${message}.xsd`, contents: schemaText(message) }],
  });
  if (result.valid) return null;
  const [first] = result.errors;
  const where = first?.loc ? `line ${first.loc.lineNumber}: ` : "";
  return `${where}${(first?.message ?? "invalid").trim()}`;
}
