/**
 * Claimed transactions: a work, then its claim (an insert that does nothing when its key is
 * taken, such as an idempotency record); the work's writes are kept only with the claim's row.
 *
 * On PostgreSQL a creation's work is inserts whose results nobody reads (a payment, its
 * authorisation). They are held back and sent with the claim as one statement in autocommit, the
 * claim first (`RETURNING 1`) and each held insert selecting its row from the claim's, so that a
 * taken key writes nothing: one round trip instead of five (BEGIN, three inserts, COMMIT), and no
 * row of it is visible before all are. A work that runs any other statement (a read, an update)
 * gets a real transaction from that statement on, the held inserts sent first in it. The claims
 * of one turn of the event loop go in few statements (joined-claims.ts).
 */
import {
  CompiledQuery, Transaction, type ControlledTransaction, type DatabaseConnection, type Dialect,
  type Kysely, type QueryResult,
} from "kysely";
import { plainInserts } from "./compiled.js";
import { joinClaims, type Claim } from "./joined-claims.js";
import type { Tx } from "./handle.js";
import type { Database } from "./schema.js";

/** The work's value, or undefined when the claim found its key taken. */
export type Claimed<T> = Promise<{ value: T } | undefined>;

export type ClaimedTransaction = <T>(
  work: (tx: Tx) => Promise<T>, claim: (tx: Tx, value: T) => Promise<boolean>,
) => Claimed<T>;

/** Held inserts per claim at most: a bulk's many payments go through a transaction. */
const HELD_MAX = 8;

class KeyTaken extends Error {}

/** Any engine: the work and the claim in `transaction`, rolled back when the key is taken. */
export function claimedIn(
  transaction: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>,
): ClaimedTransaction {
  return async (work, claim) => {
    try {
      return await transaction(async (tx) => {
        const value = await work(tx);
        if (!(await claim(tx, value))) throw new KeyTaken();
        return { value };
      });
    } catch (error) {
      if (error instanceof KeyTaken) return undefined;
      throw error;
    }
  };
}

/** The connection a claimed transaction's work runs on: it holds inserts back while it can. */
class HeldWrites implements DatabaseConnection {
  readonly #db: Kysely<Database>;
  readonly #claim: (claim: Claim) => Promise<boolean>;
  #held: CompiledQuery[] = [];
  #open: Promise<ControlledTransaction<Database>> | undefined;
  #claiming = false;
  #sent = false;

  constructor(db: Kysely<Database>, claim: (claim: Claim) => Promise<boolean>) {
    this.#db = db;
    this.#claim = claim;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#sent) throw new Error("A claimed transaction ends with its claim.");
    if (!this.#open && this.#claiming) return this.#sendWithClaim(query);
    if (!this.#open && plainInserts.has(query.sql) && this.#held.length < HELD_MAX) {
      this.#held.push(query);
      return { rows: [], numAffectedRows: 1n };
    }
    return (await this.#transaction()).executeQuery<R>(query);
  }

  streamQuery(): never {
    throw new Error("A claimed transaction does not stream.");
  }

  /** What follows is the claim. */
  claiming(): void {
    this.#claiming = true;
  }

  /** Commits (true) or rolls back a transaction the work opened; held inserts are dropped. */
  async end(commit: boolean): Promise<void> {
    this.#held = [];
    if (!this.#open) return;
    const tx = await this.#open;
    await (commit ? tx.commit() : tx.rollback()).execute();
  }

  async #sendWithClaim<R>(claim: CompiledQuery): Promise<QueryResult<R>> {
    this.#sent = true;
    const wrote = await this.#claim({ claim, held: this.#held });
    return { rows: [], numAffectedRows: wrote ? 1n : 0n };
  }

  #transaction(): Promise<ControlledTransaction<Database>> {
    this.#open ??= this.#db.startTransaction().execute().then(async (tx) => {
      try {
        for (const insert of this.#held) await tx.executeQuery(insert);
      } catch (error) {
        await tx.rollback().execute();
        throw error;
      }
      this.#held = [];
      return tx;
    });
    return this.#open;
  }
}

/** PostgreSQL's: held inserts sent with the claim, as above, the claims of a turn joined. */
export function claimedOnPostgres(db: Kysely<Database>, dialect: Dialect): ClaimedTransaction {
  const driver = dialect.createDriver();
  const send = joinClaims((statement) => db.executeQuery<{ k: number }>(statement));
  return async (work, claim) => {
    const held = new HeldWrites(db, send);
    const executor = db.getExecutor()
      .withConnectionProvider({ provideConnection: (consume) => consume(held) });
    const tx = new Transaction<Database>({ config: { dialect }, dialect, driver, executor });
    let claimed = false;
    try {
      const value = await work(tx);
      held.claiming();
      claimed = await claim(tx, value);
      return claimed ? { value } : undefined;
    } finally {
      await held.end(claimed);
    }
  };
}
