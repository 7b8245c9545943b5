/**
 * Everything that reads an XML body's text, run in a document reader's worker so that its cost
 * never lands on the event loop: parsing (refusing declarations), the root's namespace and, for a
 * pain.001 version this bank knows, its XSD validation.
 */
import { messageOf, PAIN_001_VERSIONS, schemaViolation } from "./schemas.js";
import { parseXml, rootNamespace, XmlRefused, type XmlNode } from "./xml.js";

/** A body read: its tree and namespace and its first schema violation (null when valid). */
export interface ReadDocument {
  document: XmlNode;
  namespace: string | undefined;
  violation: string | null;
}

/** What the worker answers: the document read, or why it is not one this bank reads. */
export type DocumentAnswer = { read: ReadDocument } | { refused: string };

export async function readDocument(text: string): Promise<DocumentAnswer> {
  try {
    const document = parseXml(text);
    const namespace = rootNamespace(text);
    const message = messageOf(namespace, PAIN_001_VERSIONS);
    const violation = message === undefined ? null : await schemaViolation(text, message);
    return { read: { document, namespace, violation } };
  } catch (error) {
    if (!(error instanceof XmlRefused)) throw error;
    return { refused: error.message };
  }
}
