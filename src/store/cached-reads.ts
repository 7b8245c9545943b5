/**
 * The reads every request repeats, answered from the store's read cache when made outside a
 * transaction (a read inside one may see its own changes). A decorator over the repositories,
 * so use cases call the repository as they always do and never build cache keys.
 */
import { consentsWithGrantsById } from "./consents.js";
import type { Tx } from "./handle.js";
import { paymentsById } from "./payments.js";
import { deltaMarksByKey, markKey } from "./access-counts.js";
import { authorisationsByResource } from "./sca.js";
import type { Repositories } from "./repositories.js";

/** The rows of many keys read in one statement, each under its key (none for a key not found). */
export type ManyRead<R> = (tx: Tx, keys: readonly string[]) => Promise<Map<string, R>>;

/**
 * How a read joins the other reads of its kind asked for in the same turn (PostgreSQL): `many`
 * reads them all at once, and `pick` makes this caller's answer of the row under `key`, e.g.
 * none for another TPP's row.
 */
export interface Batch<R, T> { many: ManyRead<R>; key: string; pick(row: R | undefined): T }

/**
 * `read`'s answer under `key`, or `read` itself when `tx` is a transaction (see Store.cached);
 * `batch` when the engine reads the keys of one kind together (PostgreSQL).
 */
export type ReadCache = <T, R = never>(
  tx: Tx, key: string, read: () => Promise<T>, batch?: Batch<R, T>,
) => Promise<T>;

/** A row of `tppId`'s, none for another TPP's: a resource of another TPP is unknown. */
const ofTpp = (tppId: string) => <R extends { tppId: string }>(row: R | undefined) =>
  (row?.tppId === tppId ? row : undefined);

/**
 * `turnReads`: a cache whose answers last one turn of the event loop only (PostgreSQL's), for the
 * reads a log write changes: SQLite's cache leaves the log's writes out of its count of changes.
 */
export function withCachedReads(
  repositories: Repositories, cached: ReadCache, turnReads?: ReadCache,
): Repositories {
  /** `read`, cached under its name and arguments. */
  const cachedRead = <A extends (string | number)[], R>(
    name: string, read: (tx: Tx, ...args: A) => Promise<R>,
  ) => (tx: Tx, ...args: A): Promise<R> =>
    cached(tx, `${name}:${args.join(":")}`, () => read(tx, ...args));
  const { payments, consents, tpps, sca, deltaMarks } = repositories;
  return {
    ...repositories,
    // A wave of delta list requests of one consent reads its mark at once: one statement a turn.
    deltaMarks: turnReads ? {
      ...deltaMarks,
      get: (tx, consentId, accountId) => turnReads(tx, `delta-mark:${consentId}:${accountId}`,
        () => deltaMarks.get(tx, consentId, accountId), {
          many: deltaMarksByKey, key: markKey(consentId, accountId), pick: (mark) => mark ?? null,
        }),
    } : deltaMarks,
    payments: {
      ...payments,
      findForTpp: (tx, id, tppId) => cached(tx, `payment:${id}:${tppId}`,
        () => payments.findForTpp(tx, id, tppId),
        { many: paymentsById, key: id, pick: ofTpp(tppId) }),
    },
    consents: {
      ...consents,
      findForTpp: cachedRead("consent", consents.findForTpp),
      grantedAccounts: cachedRead("granted", consents.grantedAccounts),
      findForTppWithGrants: (tx, id, tppId) => cached(tx, `consent-grants:${id}:${tppId}`,
        () => consents.findForTppWithGrants(tx, id, tppId), {
          many: consentsWithGrantsById, key: id,
          pick: (found) => (found?.consent.tppId === tppId ? found : undefined),
        }),
    },
    tpps: { ...tpps, isBlocked: cachedRead("tpp-blocked", tpps.isBlocked) },
    // A delta list asks for its consent's on each request within the hour after the SCA.
    sca: {
      ...sca,
      authorisationsOf: (tx, resourceId) => cached(tx, `authorisations:${resourceId}`,
        () => sca.authorisationsOf(tx, resourceId),
        { many: authorisationsByResource, key: resourceId, pick: (found) => found ?? [] }),
    },
  };
}
