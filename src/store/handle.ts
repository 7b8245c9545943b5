/**
 * The handles every repository takes, apart from db.ts, which builds the repositories: so that
 * no repository imports the module that imports it.
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

export type Engine = "sqlite" | "postgres";
/** A transaction, or the database itself outside one; repositories accept either. */
export type Tx = Kysely<Database>;

/**
 * A port the domain declares (its methods take the domain's opaque transaction), as the store
 * implements it: the same methods taking the store's own handle.
 */
export type OnStore<Port> = {
  [K in keyof Port]: Port[K] extends (tx: infer _DomainTx, ...rest: infer A) => infer R
    ? (tx: Tx, ...rest: A) => R
    : Port[K];
};
