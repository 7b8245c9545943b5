/**
 * The reads every request repeats, answered from the store's read cache when made outside a
 * transaction (a read inside one may see its own changes). A decorator over the repositories,
 * so use cases call the repository as they always do and never build cache keys.
 */
import type { Kysely } from "kysely";
import type { Tx } from "./handle.js";
import type { Repositories } from "./repositories.js";
import type { Database } from "./schema.js";

export type ReadCache = <T>(key: string, read: () => Promise<T>) => Promise<T>;

export function withCachedReads(
  repositories: Repositories, db: Kysely<Database>, cached: ReadCache,
): Repositories {
  /** `read`, cached under its name and arguments when `tx` is the database itself. */
  const cachedRead = <A extends (string | number)[], R>(
    name: string, read: (tx: Tx, ...args: A) => Promise<R>,
  ) => (tx: Tx, ...args: A): Promise<R> => (tx === db
    ? cached(`${name}:${args.join(":")}`, () => read(tx, ...args)) : read(tx, ...args));
  const { payments, consents, tpps } = repositories;
  return {
    ...repositories,
    payments: { ...payments, findForTpp: cachedRead("payment", payments.findForTpp) },
    consents: {
      ...consents,
      findForTpp: cachedRead("consent", consents.findForTpp),
      grantedAccounts: cachedRead("granted", consents.grantedAccounts),
    },
    tpps: { ...tpps, isBlocked: cachedRead("tpp-blocked", tpps.isBlocked) },
  };
}
