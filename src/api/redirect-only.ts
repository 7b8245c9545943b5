/**
 * This bank offers the redirect SCA approach only. The embedded and decoupled approaches update
 * an authorisation with PUT (PSU identification, password, method selection, OTP); here that
 * service is not offered, which Berlin Group answers with 405 SERVICE_INVALID.
 */
import type { FastifyInstance } from "fastify";
import { redirectApproachOnly } from "../domain/errors.js";
import type { PspRole } from "../tpp/certificate.js";
import { errorResponse } from "./schemas.js";

export function redirectOnlyRoutes(
  app: FastifyInstance, authorisationPaths: string[], role: PspRole,
): void {
  const refusals = { 401: errorResponse, 403: errorResponse, 405: errorResponse };
  for (const path of authorisationPaths) {
    const options = { config: { role }, schema: { response: refusals } };
    app.put(`${path}/:authorisationId`, options, async () => {
      throw redirectApproachOnly();
    });
  }
}
