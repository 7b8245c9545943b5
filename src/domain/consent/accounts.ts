/**
 * Account information within a consent: only the accounts and cards the PSU granted, balances
 * and transactions only where they were granted, every read through the access gate. Payment
 * accounts and card accounts are read alike; only the core's lookups differ.
 */
import { dateInZone } from "../../lib/clock.js";
import {
  createAccountAccess, DOWNLOAD_ENDPOINT, type AccessRequest, type GrantedAccess,
} from "./access.js";
import type {
  Balance, BankAccount, BookedTransaction, CardAccount, CardStatementPage, CardTransaction,
  PendingTransaction, StatementPage, StatementQuery,
} from "../account-information/core-banking.js";
import type { Consent } from "./model.js";
import { scaAuthorisedAt } from "./sca-reuse.js";
import type { Consents } from "./registration.js";
import type { Deps, StoreDeps } from "../deps.js";
import { balancesNotGranted, parameterNotSupported, resourceUnknown } from "../kernel/errors.js";
import { batchWrites } from "../kernel/write-batches.js";
import type { DeltaMark } from "./ports.js";
import type { Payment } from "../payment/model.js";
import {
  applyHistoryWindow, readFileQuery, readTransactionQuery, type TransactionQuery,
} from "../account-information/statement-query.js";
import { wholeStatement, type StatementFile } from "./statement-file.js";
import type { Tx } from "../kernel/ports.js";

/** ownerName is shown only where the consent asked for allAccountsWithOwnerName. */
export interface View<A> { account: A; balances: Balance[] | null; withOwnerName: boolean }
export type AccountView = View<BankAccount>;
export type CardAccountView = View<CardAccount>;

/** A transaction file's download link, spent on its first use (api/downloads.ts). */
export interface DownloadLink { jti: string; expiresAt: string }

/** Who asks: the TPP, its Consent-ID, and whether the PSU is present (PSU-IP-Address). */
export interface Reader { tppId: string; consentId: string; psuInitiated: boolean }

export interface Report<A, P> {
  account: A;
  query: TransactionQuery;
  page: P;
  /** With the first page only, within the query's dates. */
  pending: PendingTransaction[];
  balances: Balance[] | null;
  /** With bookingStatus=information: the standing orders from this account still running. */
  standingOrders: Payment[];
}
export type TransactionsView = Report<BankAccount, StatementPage>;
export type CardTransactionsView = Report<CardAccount, CardStatementPage>;

/** The core's lookups for one kind of account, and the names its reads are counted under. */
interface Page<T> { transactions: T[]; page: number; pageCount: number }

interface Side<A, T> {
  get(tx: Tx, id: string): Promise<A | undefined>;
  /** The accounts of `ids` that exist, in any order. */
  getMany(tx: Tx, ids: readonly string[]): Promise<A[]>;
  idOf(account: A): string;
  balances(tx: Tx, id: string): Promise<Balance[]>;
  statement(tx: Tx, id: string, q: StatementQuery): Promise<Page<T>>;
  /** Standing orders debiting the account; null where the kind has none (cards). */
  standingOrders: ((tx: Tx, account: A) => Promise<Payment[]>) | null;
  endpoints: { list: string; details: string; balances: string; transactions: string };
}

export function withOwnerName(consent: Consent): boolean {
  const a = consent.access;
  return [a.availableAccounts, a.availableAccountsWithBalance, a.allPsd2]
    .includes("allAccountsWithOwnerName");
}

/** A read through the access gate, `prepare` run once the grant is checked. */
type Gate = <R>(reader: Reader, accountId: string | null, endpoint: string,
  kind: AccessRequest["kind"], prepare: (granted: GrantedAccess) => Promise<R>,
) => Promise<GrantedAccess & { prepared: R }>;

async function accountOf<A>({ store }: StoreDeps<"db">, side: Side<A, unknown>, accountId: string) {
  const account = await side.get(store.db, accountId);
  if (!account) throw resourceUnknown("account");
  return account;
}

function viewReads<A, T>(deps: AccountDeps, gate: Gate, side: Side<A, T>) {
  const { store } = deps;

  /** Throws CONSENT_UNKNOWN / CONSENT_INVALID / CONSENT_EXPIRED / ACCESS_EXCEEDED. */
  async function list(reader: Reader, withBalance: boolean): Promise<View<A>[]> {
    const { consent, granted } = await gate(reader, null, side.endpoints.list, "account",
      async (a) => {
        if (withBalance && !a.granted.some((g) => g.balances)) throw balancesNotGranted();
      });
    const found = new Map((await side.getMany(store.db, granted.map((g) => g.accountId)))
      .map((account) => [side.idOf(account), account]));
    const views: View<A>[] = [];
    for (const grant of granted) {
      const account = found.get(grant.accountId);
      if (!account) continue;
      const balances = withBalance && grant.balances
        ? await side.balances(store.db, grant.accountId) : null;
      views.push({ account, balances, withOwnerName: withOwnerName(consent) });
    }
    return views;
  }

  async function details(
    reader: Reader, accountId: string, withBalance: boolean,
  ): Promise<View<A>> {
    const { consent, prepared: account } = await gate(reader, accountId, side.endpoints.details,
      "account", async ({ grant }) => {
        if (withBalance && !grant?.balances) throw balancesNotGranted();
        return accountOf(deps, side, accountId);
      });
    const balances = withBalance ? await side.balances(store.db, accountId) : null;
    return { account, balances, withOwnerName: withOwnerName(consent) };
  }

  async function balances(reader: Reader, accountId: string): Promise<View<A>> {
    const { consent, prepared: account } = await gate(reader, accountId,
      side.endpoints.balances, "balances", () => accountOf(deps, side, accountId));
    return {
      account, balances: await side.balances(store.db, accountId),
      withOwnerName: withOwnerName(consent),
    };
  }

  return { list, details, balances };
}

/** Pending transactions come with the first page only, within the query's dates. */
async function pendingOf(
  { store, core }: StoreDeps<"db", "core">, accountId: string, bounded: TransactionQuery,
  laterPage: boolean,
): Promise<PendingTransaction[]> {
  if (bounded.bookingStatus === "booked" || bounded.bookingStatus === "information" || laterPage) {
    return [];
  }
  return (await core.pending(store.db, accountId)).filter((p) => p.transactionDate <= bounded.dateTo
    && (bounded.dateFrom === null || p.transactionDate >= bounded.dateFrom));
}

/**
 * One read of an account's transactions through the gate: the query within the history window
 * (RTS art. 10a) and the account. A download is counted apart and spends its link once the
 * grant is checked. Also FORMAT_ERROR, PARAMETER_NOT_SUPPORTED, PERIOD_INVALID.
 */
function gatedRead<A, T>(deps: AccountDeps, gate: Gate, side: Side<A, T>) {
  const { store, clock, settings } = deps;
  return async (
    reader: Reader, accountId: string, parsed: TransactionQuery,
    { withBalance = false, download }: { withBalance?: boolean; download?: DownloadLink } = {},
  ) => {
    const now = clock.now();
    const today = dateInZone(now, settings.timeZone);
    if (parsed.bookingStatus === "information" && !side.standingOrders) {
      throw parameterNotSupported("bookingStatus",
        "A card account has no standing orders; use booked, pending or both.");
    }
    const endpoint = download ? DOWNLOAD_ENDPOINT : side.endpoints.transactions;
    const { consent, prepared } = await gate(reader, accountId, endpoint,
      "transactions", async ({ consent: c, grant }) => {
        if (withBalance && !grant?.balances) throw balancesNotGranted();
        if (download && !(await store.sca.spendToken(store.db, download.jti,
          download.expiresAt))) throw resourceUnknown("download");
        const delta = parsed.deltaList
          ? await store.deltaMarks.get(store.db, c.id, accountId) : null;
        const bounded = await applyHistoryWindow(
          parsed.deltaList ? { ...parsed, entryReferenceFrom: delta, page: 0 } : parsed,
          today, now, () => scaAuthorisedAt(deps, c));
        return { bounded, account: await accountOf(deps, side, accountId) };
      });
    return { consent, ...prepared };
  };
}

/** Kept at most, per process: each is a few dozen bytes. */
const MARKS_KEPT = 10_000;

type MarkWrite = (consentId: string, accountId: string, entryReference: string) => Promise<void>;

/**
 * A deltaList mark written once per value. Concurrent requests of one consent read the same mark,
 * answer the same page and would each write the same next mark: on PostgreSQL one commit each,
 * every one waiting on the row's lock for the one before. A request whose mark (or a later one)
 * this process has written, or is writing, waits for that write instead; a mark never moves back
 * here, which would only give the TPP entries again. Forgotten when its write fails.
 */
export function marksOnce(write: MarkWrite): MarkWrite {
  let written = new Map<string, { seq: bigint; done: Promise<void> }>();
  return (consentId, accountId, entryReference) => {
    const key = `${consentId} ${accountId}`;
    const seq = BigInt(entryReference);
    const known = written.get(key);
    if (known && known.seq >= seq) return known.done;
    if (written.size >= MARKS_KEPT) written = new Map();
    const mark = { seq, done: write(consentId, accountId, entryReference) };
    written.set(key, mark);
    mark.done.catch(() => {
      if (written.get(key) === mark) written.delete(key);
    });
    return mark.done;
  };
}

function transactionReads<A, T extends BookedTransaction>(
  deps: AccountDeps, gate: Gate, side: Side<A, T>,
) {
  const { store, clock, settings } = deps;

  const opened = gatedRead(deps, gate, side);
  // Without waiting for the disk (a synchronous fsync stopped every request on SQLite): a mark
  // lost in a power cut only gives the TPP these entries again, never skips one. The marks of
  // one burst of pages in one statement: a commit each cost a delta page 30-45 µs.
  const marks = batchWrites<DeltaMark>(
    (batch) => store.writeLog((tx) => store.deltaMarks.setAll(tx, batch)));
  const markDelta = marksOnce((consentId, accountId, entryReference) =>
    marks.append({ consentId, accountId, entryReference }));
  const currentDay = () => dateInZone(clock.now(), settings.timeZone);

  async function transactions(
    reader: Reader, accountId: string, query: Record<string, string | undefined>,
    withBalance: boolean,
  ): Promise<Report<A, Page<T>>> {
    const parsed = readTransactionQuery(query, currentDay());
    const { consent, bounded, account } = await opened(reader, accountId, parsed, { withBalance });
    const information = bounded.bookingStatus === "information";
    const page: Page<T> = bounded.bookingStatus === "pending" || information
      ? { transactions: [], page: 0, pageCount: 1 }
      : await side.statement(store.db, accountId, bounded);
    const last = page.transactions.at(-1);
    if (parsed.deltaList && last) await markDelta(consent.id, accountId, last.entryReference);
    const shown = withBalance ? await side.balances(store.db, accountId) : null;
    const pending = await pendingOf(deps, accountId, bounded, page.page > 0);
    const standingOrders = information && side.standingOrders
      ? await side.standingOrders(store.db, account) : [];
    return { account, query: bounded, page, pending, balances: shown, standingOrders };
  }

  /**
   * The whole range at once, for a statement file (camt, MT940): one read through the gate,
   * every booked entry and the booked balance at each end. A range needs its dateFrom. With
   * `download`, the file a download link named.
   */
  async function statementFile(
    reader: Reader, accountId: string, query: Record<string, string | undefined>,
    download?: DownloadLink,
  ): Promise<StatementFile<A>> {
    const parsed = readFileQuery(query, currentDay());
    const { bounded, account } = await opened(reader, accountId, parsed, { download });
    const statement = await wholeStatement((q) => side.statement(store.db, accountId, q), bounded);
    const pending = await pendingOf(deps, accountId, bounded, false);
    return { account, ...statement, pending, current: bounded.dateTo >= currentDay() };
  }

  return { transactions, statementFile };
}

function reads<A, T extends BookedTransaction>(
  deps: AccountDeps, gate: Gate, side: Side<A, T>,
) {
  return { ...viewReads(deps, gate, side), ...transactionReads(deps, gate, side) };
}

function bankSide(
  { store, core }: StoreDeps<"payments", "core">,
): Side<BankAccount, BookedTransaction> {
  return {
    get: (tx, id) => core.getAccount(tx, id), getMany: (tx, ids) => core.getAccounts(tx, ids),
    idOf: (account) => account.id, balances: (tx, id) => core.balances(tx, id),
    statement: (tx, id, q) => core.statement(tx, id, q),
    standingOrders: (tx, account) => store.payments.standingOrdersOf(tx, account.iban),
    endpoints: {
      list: "accounts", details: "account", balances: "balances", transactions: "transactions",
    },
  };
}

function cardSide({ core }: Pick<Deps, "core">): Side<CardAccount, CardTransaction> {
  return {
    get: (tx, id) => core.getCardAccount(tx, id), balances: (tx, id) => core.cardBalances(tx, id),
    getMany: async (tx, ids) => {
      const cards = [];
      for (const id of ids) cards.push(await core.getCardAccount(tx, id));
      return cards.flatMap((card) => card ?? []);
    },
    idOf: (card) => card.id,
    statement: (tx, id, q) => core.cardStatement(tx, id, q),
    standingOrders: null,
    endpoints: {
      list: "card-accounts", details: "card-account", balances: "card-balances",
      transactions: "card-transactions",
    },
  };
}

/** What the account reads work with: the core's accounts, the consent's gate, the marks. */
type AccountDeps = StoreDeps<"db" | "transaction" | "accessCounts" | "consents" | "deltaMarks"
  | "writeLog" | "notifications" | "oauthRecords" | "payments" | "sca", "clock" | "settings"
  | "core">;

export function createAccounts(deps: AccountDeps, consents: Consents) {
  const { store, core } = deps;
  const access = createAccountAccess(deps, consents);
  const gate: Gate = (reader, accountId, endpoint, kind, prepare) =>
    access.authorise({ ...reader, accountId, endpoint, kind }, prepare);
  const banks = bankSide(deps);
  const accounts = reads(deps, gate, banks);
  const cards = reads(deps, gate, cardSide(deps));

  async function transactionDetails(reader: Reader, accountId: string, transactionId: string):
    Promise<{ account: BankAccount; transaction: BookedTransaction }> {
    const { prepared } = await gate(reader, accountId, "transaction", "transactions", async () => {
      const transaction = await core.transaction(store.db, accountId, transactionId);
      if (!transaction) throw resourceUnknown("transaction");
      return { account: await accountOf(deps, banks, accountId), transaction };
    });
    return prepared;
  }

  return {
    listAccounts: accounts.list, accountDetails: accounts.details,
    accountBalances: accounts.balances, transactions: accounts.transactions, transactionDetails,
    statementFile: accounts.statementFile,
    listCardAccounts: cards.list, cardAccountDetails: cards.details,
    cardAccountBalances: cards.balances, cardTransactions: cards.transactions,
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
