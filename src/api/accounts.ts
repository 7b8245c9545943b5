/**
 * Account information routes, each answering only within the consent named by Consent-ID.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Reader } from "../domain/consent/accounts.js";
import { negotiate } from "./accept.js";
import { pageBodies } from "./page-body.js";
import { readBooleanQuery, readConsentId, readPsuIpAddress } from "./headers.js";
import type { Presenters } from "./profile.js";
import {
  FILE_ANSWERS, refusalsOf, statementFiles, TRANSACTION_FORMATS, type ReadWire,
  type StatementFileOptions,
} from "./statement-files.js";
import {
  accountDetailsResponse, accountListResponse, balancesResponse, bookedTransaction,
  cardAccountDetailsResponse,
  cardAccountListResponse, cardBalancesResponse, cardTransactionsResponse,
  transactionDetailsResponse, transactionsQuery, transactionsResponse, withBalanceQuery,
} from "./schemas.js";

export type AccountRoutesOptions = StatementFileOptions;

const config = { role: "PSP_AI" } as const;

/**
 * A read's options: its role, its query, its answer in the profile's dialect and the
 * interface's refusals and answer headers.
 */
const reading = (presenters: Presenters, wire: ReadWire | undefined) =>
  (body: object, querystring: object = {}) => ({
    config, onSend: wire?.onSend,
    schema: { querystring, response: { 200: presenters.schema(body), ...refusalsOf(wire) } },
  });

type Query = Record<string, string | undefined>;
type ById = { Params: { accountId: string; transactionId?: string }; Querystring: Query };

function readerOf(request: FastifyRequest): Reader {
  return {
    tppId: request.tpp.id,
    consentId: readConsentId(request.headers),
    psuInitiated: readPsuIpAddress(request.headers) !== null,
  };
}

export function accountRoutes(app: FastifyInstance, options: AccountRoutesOptions): void {
  const { base, accounts, presenters } = options;
  const files = statementFiles(options);
  const answers = reading(presenters, options.wire);
  const list = answers(accountListResponse, withBalanceQuery);
  app.get<{ Querystring: Query }>(`${base}/accounts`, list, async (request) => {
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const views = await accounts.listAccounts(reader, withBalance);
    return { accounts: views.map(presenters.account) };
  });

  const account = answers(accountDetailsResponse, withBalanceQuery);
  app.get<ById>(`${base}/accounts/:accountId`, account, async (request) => {
    const reader = readerOf(request);
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const view = await accounts.accountDetails(reader, request.params.accountId, withBalance);
    return { account: presenters.account(view) };
  });

  const balances = answers(balancesResponse);
  app.get<ById>(`${base}/accounts/:accountId/balances`, balances, async (request) => {
    const view = await accounts.accountBalances(readerOf(request), request.params.accountId);
    return presenters.balances(view.account, view.balances ?? []);
  });

  const listed = answers(transactionsResponse, transactionsQuery);
  const transactions = {
    ...listed, config: { ...listed.config, otherAnswers: FILE_ANSWERS },
    schema: { ...listed.schema,
      response: { ...listed.schema.response, 406: listed.schema.response[400] } },
  };
  const pageBody = pageBodies(presenters.schema(bookedTransaction), presenters.bookedEntry);
  const transactionsPath = `${base}/accounts/:accountId/transactions`;
  app.get<ById>(transactionsPath, transactions, async (request, reply) => {
    const { accountId } = request.params;
    const reader = readerOf(request);
    const format = negotiate(request.headers.accept, TRANSACTION_FORMATS);
    if (format !== "application/json") {
      return files.answer(reply, reader, accountId, request.query, format);
    }
    const withBalance = readBooleanQuery(request.query, "withBalance");
    const view = await accounts.transactions(reader, accountId, request.query, withBalance);
    return pageBody(reply, view,
      (shown) => presenters.transactions(shown, `${base}/accounts/${accountId}`, request.query));
  });

  const details = `${base}/accounts/:accountId/transactions/:transactionId`;
  app.get<ById>(details, answers(transactionDetailsResponse), async (request) => {
    const { accountId, transactionId = "" } = request.params;
    const reader = readerOf(request);
    const { transaction } = await accounts.transactionDetails(reader, accountId, transactionId);
    return presenters.transaction(transaction);
  });

  files.downloadRoute(app, readerOf);
  cardAccountRoutes(app, options);
}

/** Berlin Group's card account endpoints; a card is granted and counted like an account. */
function cardAccountRoutes(app: FastifyInstance, options: AccountRoutesOptions): void {
  const { base, accounts, presenters } = options;
  const answers = reading(presenters, options.wire);
  const withBalance = (request: FastifyRequest<{ Querystring: Query }>) =>
    readBooleanQuery(request.query, "withBalance");

  const list = answers(cardAccountListResponse, withBalanceQuery);
  app.get<{ Querystring: Query }>(`${base}/card-accounts`, list, async (request) => {
    const views = await accounts.listCardAccounts(readerOf(request), withBalance(request));
    return { cardAccounts: views.map(presenters.cardAccount) };
  });

  const details = answers(cardAccountDetailsResponse, withBalanceQuery);
  app.get<ById>(`${base}/card-accounts/:accountId`, details, async (request) => {
    const { accountId } = request.params;
    const reader = readerOf(request);
    const view = await accounts.cardAccountDetails(reader, accountId, withBalance(request));
    return { cardAccount: presenters.cardAccount(view) };
  });

  const balances = answers(cardBalancesResponse);
  app.get<ById>(`${base}/card-accounts/:accountId/balances`, balances, async (request) => {
    const view = await accounts.cardAccountBalances(readerOf(request), request.params.accountId);
    return presenters.cardBalances(view.account, view.balances ?? []);
  });

  const transactions = answers(cardTransactionsResponse, transactionsQuery);
  app.get<ById>(`${base}/card-accounts/:accountId/transactions`, transactions, async (request) => {
    const { accountId } = request.params;
    const reader = readerOf(request);
    const { query } = request;
    const view = await accounts.cardTransactions(reader, accountId, query, withBalance(request));
    return presenters.cardTransactions(view, `${base}/card-accounts/${accountId}`, request.query);
  });
}
