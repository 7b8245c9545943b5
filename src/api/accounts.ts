/**
 * Account information routes, each answering only within the consent named by Consent-ID.
 */
import type { FastifyInstance } from "fastify";
import type { createAccounts } from "../domain/accounts.js";
import { readBooleanQuery, readConsentId } from "./headers.js";
import { presentAccount } from "./present.js";
import { accountListResponse, errorResponse } from "./schemas.js";

export interface AccountRoutesOptions { base: string; accounts: ReturnType<typeof createAccounts> }

const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse };

export function accountRoutes(app: FastifyInstance, { base, accounts }: AccountRoutesOptions): void {
  app.get<{ Querystring: Record<string, string> }>(`${base}/accounts`, {
    config: { role: "PSP_AI" },
    schema: {
      querystring: { type: "object", properties: { withBalance: { type: "string", enum: ["true", "false"] } } },
      response: { 200: accountListResponse, ...refusals },
    },
  }, async (request) => {
    const consentId = readConsentId(request.headers);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const views = await accounts.listAccounts(request.tpp.id, consentId, withBalance);
    return { accounts: views.map(presentAccount) };
  });
}
