/**
 * Queries built and compiled once per dialect and bound to new values on each call. Kysely builds
 * a query's tree and compiles its SQL on every call, which for the store's short statements costs
 * more CPU than SQLite takes to run them (a page of transactions, a payment's insert). The SQL
 * text stays the same from call to call, so SQLite's cache of prepared statements and
 * PostgreSQL's named statements (db.ts) reuse it as before.
 */
import { CompiledQuery, type Compilable, type QueryResult } from "kysely";
import type { Tx } from "./handle.js";
import type { Database } from "./schema.js";

/**
 * Scalar values, or an array bound as one parameter (PostgreSQL's `= any($1)`); never a Kysely
 * list (`in`), which would fix the number of its placeholders at the first call.
 */
type Scalar = string | number | bigint | null | readonly string[];

interface Template { sql: string; slots: ({ name: string } | { value: unknown })[] }

/** A value no caller passes, standing for the parameter `name` while the query is compiled. */
const marker = (name: string) => `\u0000compiled:${name}\u0000`;

function compileTemplate<P extends Record<string, Scalar>>(
  tx: Tx, names: readonly (keyof P & string)[], build: (tx: Tx, values: P) => Compilable<unknown>,
): Template {
  const markers = Object.fromEntries(names.map((name) => [name, marker(name)])) as unknown as P;
  const { sql, parameters } = build(tx, markers).compile();
  const byMarker = new Map(names.map((name) => [marker(name), name]));
  const slots = parameters.map((value) => {
    const name = typeof value === "string" ? byMarker.get(value) : undefined;
    return name === undefined ? { value } : { name };
  });
  return { sql, slots };
}

/**
 * `build` makes the query from `values`, which it must put into the query as they are (no
 * arithmetic, no lists): they are markers at the one call that compiles. Answers the result:
 * its rows, or the rows a write changed.
 */
export function compiledQuery<P extends Record<string, Scalar>, R>(
  names: readonly (keyof P & string)[], build: (tx: Tx, values: P) => Compilable<R>,
  compiled: (sql: string) => void = () => undefined,
): (tx: Tx, values: P) => Promise<QueryResult<R>> {
  // By the executor's adapter: one per dialect, shared by a database and its transactions.
  const templates = new WeakMap<object, Template>();
  return async (tx, values) => {
    const adapter = tx.getExecutor().adapter;
    let template = templates.get(adapter);
    if (!template) {
      template = compileTemplate(tx, names, build as (tx: Tx, values: P) => Compilable<unknown>);
      templates.set(adapter, template);
      compiled(template.sql);
    }
    const parameters = template.slots.map((slot) => ("name" in slot
      ? values[slot.name] : slot.value));
    return tx.executeQuery<R>(CompiledQuery.raw(template.sql, parameters));
  };
}

/**
 * The SQL texts of compiledInsert's inserts: a plain insert of one row whose result tells nothing
 * but success, which a claimed transaction on PostgreSQL may hold back (claimed.ts).
 */
export const plainInserts = new Set<string>();

/** An insert of one row into `table`, every one of `columns` bound (null where absent). */
export function compiledInsert<
  T extends keyof Database & string, C extends keyof Database[T] & string,
>(
  table: T, columns: readonly C[],
): (tx: Tx, row: Record<C, Scalar>) => Promise<QueryResult<unknown>> {
  return compiledQuery(columns, (tx, row) => tx.insertInto(table).values(row as never),
    (sql) => plainInserts.add(sql));
}
