/**
 * PostgreSQL's claims (claimed.ts) of one turn of the event loop joined into few statements: each
 * claim with its held inserts is a group of the statement's `WITH`, and the statement answers
 * which groups' claims wrote. A statement is a transaction: one commit, one executor and one
 * round trip for the turn's creations instead of one each. Only claims of one shape (the same
 * texts) are joined, in statements of 1, 2, 4, 8 or 16 groups, so that a connection prepares
 * few texts and plans each once.
 */
import { CompiledQuery, type QueryResult } from "kysely";
import { assert } from "../lib/assert.js";
import { groupBy } from "../lib/group.js";

/** A claim (an insert that does nothing when its key is taken) and the inserts kept with it. */
export interface Claim {
  claim: CompiledQuery;
  held: readonly CompiledQuery[];
}

/** Groups in one statement at most. */
const JOINED_MAX = 16;

const VALUES = " values (";

/**
 * An insert of one row of bound values as `insert … select`, its parameters numbered from
 * `first`, selecting from `source` when given; what follows the values (`on conflict`) stays.
 */
function asSelect(insert: CompiledQuery, first: number, source?: string): string {
  const at = insert.sql.lastIndexOf(VALUES);
  const end = insert.sql.indexOf(")", at);
  const bound = insert.parameters.map((_, i) => `$${i + 1}`).join(", ");
  assert(at > 0 && insert.sql.slice(at + VALUES.length, end) === bound,
    "a joined insert binds every value");
  const values = insert.parameters.map((_, i) => `$${first + i}`).join(", ");
  const from = source === undefined ? "" : ` from ${source}`;
  return `${insert.sql.slice(0, at)} select ${values}${from}${insert.sql.slice(end + 1)}`;
}

/** One group's part of the `WITH`: its claim, then each held insert selecting from its row. */
function group({ claim, held }: Claim, k: number, parameters: unknown[]): string {
  const parts = [`claim${k} as (${asSelect(claim, parameters.length + 1)} returning 1)`];
  parameters.push(...claim.parameters);
  held.forEach((insert, i) => {
    parts.push(`held${k}_${i} as (${asSelect(insert, parameters.length + 1, `claim${k}`)})`);
    parameters.push(...insert.parameters);
  });
  return parts.join(", ");
}

/** The claims as one statement answering a row `k` for each claim `k` that wrote. */
export function joinedStatement(claims: readonly Claim[]): CompiledQuery {
  const parameters: unknown[] = [];
  const groups = claims.map((claim, k) => group(claim, k, parameters));
  const wrote = claims.map((_, k) => `select ${k} as k from claim${k}`).join(" union all ");
  return CompiledQuery.raw(`with ${groups.join(", ")} ${wrote}`, parameters);
}

interface Pending extends Claim {
  settle: (outcome: { wrote: boolean } | { error: unknown }) => void;
}

const shapeOf = ({ claim, held }: Claim) => [claim.sql, ...held.map((h) => h.sql)].join("\n");

/** The largest power of two ≤ n, at most JOINED_MAX. */
function chunkSize(n: number): number {
  let size = 1;
  while (size * 2 <= Math.min(n, JOINED_MAX)) size *= 2;
  return size;
}

/**
 * Claims made in one turn are sent at its end (setImmediate), joined by shape. `execute` runs a
 * statement on any connection of the pool; the statements of one turn run side by side.
 */
export function joinClaims(
  execute: (statement: CompiledQuery) => Promise<QueryResult<{ k: number }>>,
): (claim: Claim) => Promise<boolean> {
  let pending: Pending[] = [];

  async function send(chunk: readonly Pending[]): Promise<void> {
    try {
      const { rows } = await execute(joinedStatement(chunk));
      const wrote = new Set(rows.map((row) => Number(row.k)));
      chunk.forEach((claim, k) => claim.settle({ wrote: wrote.has(k) }));
    } catch (error) {
      if (chunk.length === 1) return chunk[0]!.settle({ error });
      // One claim's fault (a constraint, a deadlock between two retries of the same keys) fails
      // the statement and writes nothing: each is sent alone to learn its own outcome.
      await Promise.all(chunk.map((claim) => send([claim])));
    }
  }

  function flush(): void {
    const shapes = groupBy(pending, shapeOf);
    pending = [];
    for (const claims of shapes.values()) {
      for (let first = 0; first < claims.length;) {
        const size = chunkSize(claims.length - first);
        void send(claims.slice(first, first + size));
        first += size;
      }
    }
  }

  return (claim) => new Promise<boolean>((resolve, reject) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ ...claim, settle: (outcome) => ("error" in outcome
      ? reject(outcome.error) : resolve(outcome.wrote)) });
  });
}
