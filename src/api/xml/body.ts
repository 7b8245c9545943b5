/**
 * XML request bodies (ISO 20022 pain.001) on the operations that declare `config.xml`; any
 * other operation answers an XML body with 415, as it would any type it does not take.
 */
import type { FastifyInstance } from "fastify";
import { formatError, unsupportedMediaType } from "../../domain/errors.js";
import { parseXml, rootNamespace, XmlRefused, type XmlNode } from "./xml.js";

/** A parsed XML body, kept apart from JSON bodies until its operation turns it into one. */
export class XmlBody {
  constructor(readonly document: XmlNode, readonly namespace: string | undefined) {}
}

declare module "fastify" {
  /**
   * `xml`: takes a pain.001 body; `otherAnswers`: the media types its 200 also comes in, to the
   * Accept that asks for them, each with what it is (for the OpenAPI document).
   */
  interface FastifyContextConfig { xml?: boolean; otherAnswers?: Readonly<Record<string, string>> }
}

export function installXmlParser(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(["application/xml", "text/xml"], { parseAs: "buffer", bodyLimit },
    (request, body, done) => {
      if (request.routeOptions.config.xml !== true) {
        done(unsupportedMediaType(), undefined);
        return;
      }
      request.rawBody = body as Buffer;
      const text = request.rawBody.toString("utf8");
      try {
        done(null, new XmlBody(parseXml(text), rootNamespace(text)));
      } catch (error) {
        if (!(error instanceof XmlRefused)) throw error;
        done(formatError("body", "body", error.message), undefined);
      }
    });
}
