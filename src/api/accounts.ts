/**
 * Account information routes, each answering only within the consent named by Consent-ID.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Accounts, Reader } from "../domain/accounts.js";
import { readBooleanQuery, readConsentId, readPsuIpAddress } from "./headers.js";
import { presentAccount, presentBalance } from "./present.js";
import {
  presentAccountReference, presentTransaction, presentTransactions,
} from "./present-accounts.js";
import { accountListResponse, errorResponse } from "./schemas.js";

export interface AccountRoutesOptions { base: string; accounts: Accounts }

const refusals = {
  400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse,
};

type Query = Record<string, string | undefined>;
type ById = { Params: { accountId: string; transactionId?: string }; Querystring: Query };

function readerOf(request: FastifyRequest): Reader {
  return {
    tppId: request.tpp.id,
    consentId: readConsentId(request.headers),
    psuInitiated: readPsuIpAddress(request.headers) !== null,
  };
}

export function accountRoutes(
  app: FastifyInstance, { base, accounts }: AccountRoutesOptions,
): void {
  const config = { role: "PSP_AI" } as const;
  const schema = { response: refusals };

  app.get<{ Querystring: Query }>(`${base}/accounts`, {
    config,
    schema: {
      querystring: {
        type: "object",
        properties: { withBalance: { type: "string", enum: ["true", "false"] } },
      },
      response: { 200: accountListResponse, ...refusals },
    },
  }, async (request) => {
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const views = await accounts.listAccounts(reader, withBalance);
    return { accounts: views.map(presentAccount) };
  });

  app.get<ById>(`${base}/accounts/:accountId`, { config, schema }, async (request) => {
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const view = await accounts.accountDetails(reader, request.params.accountId, withBalance);
    return { account: presentAccount(view) };
  });

  app.get<ById>(`${base}/accounts/:accountId/balances`, { config, schema }, async (request) => {
    const view = await accounts.accountBalances(readerOf(request), request.params.accountId);
    return {
      account: presentAccountReference(view.account),
      balances: (view.balances ?? []).map(presentBalance),
    };
  });

  app.get<ById>(`${base}/accounts/:accountId/transactions`, { config, schema }, async (request) => {
    const { accountId } = request.params;
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const view = await accounts.transactions(reader, accountId, request.query, withBalance);
    return presentTransactions(view, `${base}/accounts/${accountId}`, request.query);
  });

  const details = `${base}/accounts/:accountId/transactions/:transactionId`;
  app.get<ById>(details, { config, schema }, async (request) => {
    const { accountId, transactionId = "" } = request.params;
    const reader = readerOf(request);
    const { transaction } = await accounts.transactionDetails(reader, accountId, transactionId);
    return { transactionsDetails: presentTransaction(transaction) };
  });
}
