/**
 * Account information routes, each answering only within the consent named by Consent-ID.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Accounts, Reader } from "../domain/accounts.js";
import { readBooleanQuery, readConsentId, readPsuIpAddress } from "./headers.js";
import type { Presenters } from "./profile.js";
import { accountListResponse, errorResponse } from "./schemas.js";

export interface AccountRoutesOptions { base: string; accounts: Accounts; presenters: Presenters }

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
  app: FastifyInstance, { base, accounts, presenters }: AccountRoutesOptions,
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
      response: { 200: presenters.schema(accountListResponse), ...refusals },
    },
  }, async (request) => {
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const views = await accounts.listAccounts(reader, withBalance);
    return { accounts: views.map(presenters.account) };
  });

  app.get<ById>(`${base}/accounts/:accountId`, { config, schema }, async (request) => {
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const view = await accounts.accountDetails(reader, request.params.accountId, withBalance);
    return { account: presenters.account(view) };
  });

  app.get<ById>(`${base}/accounts/:accountId/balances`, { config, schema }, async (request) => {
    const view = await accounts.accountBalances(readerOf(request), request.params.accountId);
    return presenters.balances(view.account, view.balances ?? []);
  });

  app.get<ById>(`${base}/accounts/:accountId/transactions`, { config, schema }, async (request) => {
    const { accountId } = request.params;
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const view = await accounts.transactions(reader, accountId, request.query, withBalance);
    return presenters.transactions(view, `${base}/accounts/${accountId}`, request.query);
  });

  const details = `${base}/accounts/:accountId/transactions/:transactionId`;
  app.get<ById>(details, { config, schema }, async (request) => {
    const { accountId, transactionId = "" } = request.params;
    const reader = readerOf(request);
    const { transaction } = await accounts.transactionDetails(reader, accountId, transactionId);
    return presenters.transaction(transaction);
  });

  cardAccountRoutes(app, { base, accounts, presenters });
}

/** Berlin Group's card account endpoints; a card is granted and counted like an account. */
function cardAccountRoutes(app: FastifyInstance, { base, accounts, presenters }: AccountRoutesOptions): void {
  const config = { role: "PSP_AI" } as const;
  const schema = { response: refusals };
  const withBalance = (request: FastifyRequest<{ Querystring: Query }>) =>
    readBooleanQuery(request.query, "withBalance");

  app.get<{ Querystring: Query }>(`${base}/card-accounts`, { config, schema }, async (request) => {
    const views = await accounts.listCardAccounts(readerOf(request), withBalance(request));
    return { cardAccounts: views.map(presenters.cardAccount) };
  });

  app.get<ById>(`${base}/card-accounts/:accountId`, { config, schema }, async (request) => {
    const view = await accounts.cardAccountDetails(readerOf(request), request.params.accountId, withBalance(request));
    return { cardAccount: presenters.cardAccount(view) };
  });

  app.get<ById>(`${base}/card-accounts/:accountId/balances`, { config, schema }, async (request) => {
    const view = await accounts.cardAccountBalances(readerOf(request), request.params.accountId);
    return presenters.cardBalances(view.account, view.balances ?? []);
  });

  app.get<ById>(`${base}/card-accounts/:accountId/transactions`, { config, schema }, async (request) => {
    const { accountId } = request.params;
    const view = await accounts.cardTransactions(readerOf(request), accountId, request.query, withBalance(request));
    return presenters.cardTransactions(view, `${base}/card-accounts/${accountId}`, request.query);
  });
}
