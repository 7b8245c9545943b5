/**
 * The reads every request repeats, answered from the store's read cache when made outside a
 * transaction (a read inside one may see its own changes). A decorator over the repositories,
 * so use cases call the repository as they always do and never build cache keys.
 */
import type { Tx } from "./handle.js";
import type { Repositories } from "./repositories.js";

/** `read`'s answer under `key`, or `read` itself when `tx` is a transaction (see Store.cached). */
export type ReadCache = <T>(tx: Tx, key: string, read: () => Promise<T>) => Promise<T>;

export function withCachedReads(repositories: Repositories, cached: ReadCache): Repositories {
  /** `read`, cached under its name and arguments. */
  const cachedRead = <A extends (string | number)[], R>(
    name: string, read: (tx: Tx, ...args: A) => Promise<R>,
  ) => (tx: Tx, ...args: A): Promise<R> =>
    cached(tx, `${name}:${args.join(":")}`, () => read(tx, ...args));
  const { payments, consents, tpps } = repositories;
  return {
    ...repositories,
    payments: { ...payments, findForTpp: cachedRead("payment", payments.findForTpp) },
    consents: {
      ...consents,
      findForTpp: cachedRead("consent", consents.findForTpp),
      grantedAccounts: cachedRead("granted", consents.grantedAccounts),
      findForTppWithGrants: cachedRead("consent-grants", consents.findForTppWithGrants),
    },
    tpps: { ...tpps, isBlocked: cachedRead("tpp-blocked", tpps.isBlocked) },
  };
}
