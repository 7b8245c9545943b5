/**
 * The OAuth authorisation server's endpoints that need the TPP's certificate (pushed requests,
 * token, introspection, revocation), on the API listener as RFC 8705's mtls_endpoint_aliases. The
 * certificate is checked as on every XS2A call (chain, revocation, PSD2 profile) and registers
 * the TPP on first use; the server then authenticates the client by it (tls_client_auth). They
 * speak OAuth, not Berlin Group: no X-Request-ID, and refusals are the server's OAuth errors (a
 * refused certificate is no certificate: invalid_client).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TppIdentity } from "../tpp/certificate.js";
import { createIdentify, type CertificateSources } from "./tpp-certificate.js";

export interface OAuthEndpointOptions {
  paths: readonly string[];
  certificates: CertificateSources;
  ensureTpp: (tpp: TppIdentity) => Promise<void>;
  admitTpp: (tppId: string) => Promise<number>;
  /** The authorisation server; `client` is absent when the certificate was refused. */
  handle(req: IncomingMessage, res: ServerResponse,
    client?: { clientId: string; der: Uint8Array; domains: readonly string[] }): void;
}

/** The verified client certificate, or undefined for the server to refuse. */
async function verifiedClient(
  request: FastifyRequest, options: OAuthEndpointOptions,
  identify: ReturnType<typeof createIdentify>,
) {
  try {
    const { identity, der } = await identify(request);
    await options.ensureTpp(identity);
    return { clientId: identity.id, der, domains: identity.domains };
  } catch {
    return undefined;
  }
}

export function oauthEndpoints(app: FastifyInstance, options: OAuthEndpointOptions): void {
  const identify = createIdentify(options.certificates);
  // Before Fastify reads the body: the server reads the form itself.
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    const client = await verifiedClient(request, options, identify);
    const retryAfter = client ? await options.admitTpp(client.clientId) : 0;
    if (retryAfter > 0) {
      return reply.code(429).header("Retry-After", String(retryAfter))
        .send({ error: "slow_down", error_description: "Too many requests of this TPP." });
    }
    reply.hijack();
    options.handle(request.raw, reply.raw, client);
  };
  const handler = async () => undefined;
  for (const url of options.paths) {
    app.route({ method: ["POST"], url, config: { oauth: true }, onRequest, handler });
  }
}
