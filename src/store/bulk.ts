/**
 * Bulk inserts of many rows without Kysely's query builder, which costs more per row than the
 * database does: one SQL text per table and chunk size, so SQLite reuses its prepared statement,
 * and PostgreSQL gets one array per column (unnest) instead of one parameter per value.
 */
import { CompiledQuery } from "kysely";
import type { Engine, Tx } from "./handle.js";
import type { Database } from "./schema.js";

/** A column, the PostgreSQL type of its array, and how to read it from a record. */
export type BulkColumn<T, Column extends string> =
  readonly [name: Column, type: "text" | "bigint", read: (row: T) => unknown];

// SQLite binds at most 32766 parameters to one statement.
const SQLITE_PARAMETERS = 30_000;
/**
 * Rows of one statement at most on SQLite. Chunks of the most rows the parameters allow (1,764 of
 * an entry's 17 columns) gave each remainder a text of its own, parsed anew and then held in the
 * cache of prepared statements: seeding the demo bank (2,502 transfers, 5,004 entries) took
 * 100-120 ms of CPU that way and 61-76 ms in chunks of up to 256 rows (better-sqlite3 alone), and
 * the first start's peak RSS at ready fell from 154-161 to 143-149 MB (measured on 2026-11-29).
 */
const SQLITE_ROWS = 256;
const POSTGRES_ROWS = 10_000;

/**
 * `write` over `rows` in chunks: on SQLite of power-of-two sizes up to `max`, so that a few SQL
 * texts, each prepared once, fit batches of every size; on PostgreSQL, which prepares none of
 * them, all at once.
 */
export async function inChunks<T>(engine: Engine, rows: readonly T[], max: number,
  write: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let first = 0; first < rows.length;) {
    const size = engine === "postgres" ? rows.length - first
      : 2 ** Math.floor(Math.log2(Math.min(rows.length - first, max)));
    await write(rows.slice(first, first + size));
    first += size;
  }
}

export async function bulkInsert<T, Table extends keyof Database & string>(
  tx: Tx, engine: Engine, table: Table,
  columns: readonly BulkColumn<T, keyof Database[Table] & string>[], rows: readonly T[],
): Promise<void> {
  const names = columns.map(([name]) => `"${name}"`).join(", ");
  if (engine === "postgres") {
    const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
    const text = `insert into "${table}" (${names}) select * from unnest(${arrays})`;
    for (let first = 0; first < rows.length; first += POSTGRES_ROWS) {
      const chunk = rows.slice(first, first + POSTGRES_ROWS);
      await tx.executeQuery(CompiledQuery.raw(text, columns.map(([, , read]) => chunk.map(read))));
    }
    return;
  }
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const max = Math.min(SQLITE_ROWS, Math.floor(SQLITE_PARAMETERS / columns.length));
  await inChunks(engine, rows, max, async (chunk) => {
    const parameters: unknown[] = new Array(chunk.length * columns.length);
    let p = 0;
    for (const row of chunk) for (const [, , read] of columns) parameters[p++] = read(row);
    const values = Array(chunk.length).fill(tuple).join(", ");
    await tx.executeQuery(
      CompiledQuery.raw(`insert into "${table}" (${names}) values ${values}`, parameters));
  });
}
