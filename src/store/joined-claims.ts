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

/** One group's part of the `WITH`, its parameters numbered from `first`, and their count. */
function group({ claim, held }: Claim, k: number, first: number): [string, number] {
  const parts = [`claim${k} as (${asSelect(claim, first)} returning 1)`];
  let next = first + claim.parameters.length;
  held.forEach((insert, i) => {
    parts.push(`held${k}_${i} as (${asSelect(insert, next, `claim${k}`)})`);
    next += insert.parameters.length;
  });
  return [parts.join(", "), next - first];
}

/** The text of one statement of `claims`, answering a row `k` for each claim `k` that wrote. */
function joinedText(claims: readonly Claim[]): string {
  let first = 1;
  const groups = claims.map((claim, k) => {
    const [text, count] = group(claim, k, first);
    first += count;
    return text;
  });
  const wrote = claims.map((_, k) => `select ${k} as k from claim${k}`).join(" union all ");
  return `with ${groups.join(", ")} ${wrote}`;
}

interface Pending extends Claim {
  settle: (outcome: { wrote: boolean } | { error: unknown }) => void;
}

/**
 * Claims of one shape share their statements' texts, built once for each size: a text of 16
 * groups took 170 µs to build (2026-11-29, a machine whose bare server costs 90 µs a request).
 * A shape is found by its SQL texts one by one, each a string the compiled queries keep, so no
 * key is built for a claim.
 */
interface Shape {
  next: Map<string, Shape>;
  texts: Map<number, string>;
}

const newShape = (): Shape => ({ next: new Map(), texts: new Map() });

function shapeOf(shapes: Shape, { claim, held }: Claim): Shape {
  let shape = shapes;
  for (const text of [claim.sql, ...held.map((insert) => insert.sql)]) {
    let next = shape.next.get(text);
    if (!next) shape.next.set(text, next = newShape());
    shape = next;
  }
  return shape;
}

function joinedStatement(shape: Shape, claims: readonly Claim[]): CompiledQuery {
  let text = shape.texts.get(claims.length);
  if (text === undefined) shape.texts.set(claims.length, text = joinedText(claims));
  const parameters = claims.flatMap(({ claim, held }) =>
    [claim, ...held].flatMap((query) => query.parameters));
  return CompiledQuery.raw(text, parameters);
}

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
  const shapes = newShape();

  async function send(shape: Shape, chunk: readonly Pending[]): Promise<void> {
    try {
      const { rows } = await execute(joinedStatement(shape, chunk));
      const wrote = new Set(rows.map((row) => Number(row.k)));
      chunk.forEach((claim, k) => claim.settle({ wrote: wrote.has(k) }));
    } catch (error) {
      if (chunk.length === 1) return chunk[0]!.settle({ error });
      // One claim's fault (a constraint, a deadlock between two retries of the same keys) fails
      // the statement and writes nothing: each is sent alone to learn its own outcome.
      await Promise.all(chunk.map((claim) => send(shape, [claim])));
    }
  }

  function flush(): void {
    const byShape = groupBy(pending, (claim) => shapeOf(shapes, claim));
    pending = [];
    for (const [shape, claims] of byShape) {
      for (let first = 0; first < claims.length;) {
        const size = chunkSize(claims.length - first);
        void send(shape, claims.slice(first, first + size));
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
