/**
 * The handle every port of the domain's storage takes (architecture.md 6.3): the store's, or a
 * bank's own store's, and the ports shared by the aggregates (TPPs, idempotency, audit log,
 * leases, savepoints). The aggregates declare their own (payment/, consent/ and sca/ports.ts);
 * deps.ts gathers them all in StorePort.
 */

/**
 * A transaction of the store, or its database outside one: opaque to the domain, which cannot
 * query with it and only hands it back to the store. Its one member is what every handle of the
 * store already answers, so the store passes its own handles as they are.
 */
export interface Tx { readonly isTransaction: boolean }

/** Runs `work` in a savepoint of `tx`, kept when it answers true and undone otherwise. */
export interface SavepointPort {
  keepIf(tx: Tx, work: () => Promise<boolean>): Promise<boolean>;
}

/** Which instance runs a job that must run once across instances (due payments, pruning). */
export interface LeasePort {
  acquire(tx: Tx, job: string, holder: string, now: string, until: string): Promise<boolean>;
}

/** An answered creation, replayed for the same TPP and X-Request-ID. */
export interface IdempotencyRecord { bodyHash: string; statusCode: number; responseBody: string }

export interface IdempotencyPort {
  find(tx: Tx, tppId: string, requestId: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Stores the answer under its key; false when the key is taken (a racing request with the same
   * key waits for the other's transaction, then finds it taken).
   */
  record(tx: Tx, key: { tppId: string; requestId: string; at: string },
    answer: IdempotencyRecord): Promise<boolean>;
  /** Forgets the answers stored before `before`; returns how many. */
  forgetBefore(tx: Tx, before: string): Promise<number>;
}

/** The TPPs the bank has met, with the operator's stop-list and the per-minute request counts. */
export interface TppPort {
  ensure(tx: Tx, id: string, name: string, at: string): Promise<void>;
  isBlocked(tx: Tx, id: string): Promise<boolean>;
  setBlocked(tx: Tx, id: string, blocked: boolean, at: string): Promise<void>;
  list(tx: Tx): Promise<{ id: string; name: string; blocked: boolean; createdAt: string }[]>;
  countRequest(tx: Tx, id: string, windowStart: string): Promise<number>;
  /** The window's count so far, counting nothing. */
  requestsCounted(tx: Tx, id: string, windowStart: string): Promise<number>;
  forgetRequestsBefore(tx: Tx, windowStart: string): Promise<void>;
  name(tx: Tx, id: string): Promise<string | undefined>;
}

/** One answered request in the audit log. */
export interface AuditEntry {
  id: string;
  at: string;
  tppId: string | null;
  requestId: string | null;
  psuIp: string | null;
  method: string;
  path: string;
  resourceId: string | null;
  status: number;
  ms: number;
}

export interface AuditQuery {
  tppId?: string;
  resourceId?: string;
  requestId?: string;
  since?: string;
  until?: string;
  limit: number;
}

export interface AuditPort {
  append(tx: Tx, entries: AuditEntry[]): Promise<void>;
  query(tx: Tx, q: AuditQuery): Promise<AuditEntry[]>;
  /** How many entries were removed. */
  pruneBefore(tx: Tx, at: string): Promise<number>;
}

/**
 * One record of the OAuth authorisation server (a grant, code, token, pushed request, ...): the
 * server library's JSON, and what it is looked up and revoked by. Times in epoch seconds.
 */
export interface OAuthRecord {
  payload: string;
  grantId: string | null;
  uid: string | null;
  /** The consent or payment its scope names, if any. */
  resourceId: string | null;
  expiresAt: number | null;
  consumedAt: number | null;
}

export interface OAuthRecordPort {
  save(tx: Tx, model: string, id: string, record: Omit<OAuthRecord, "consumedAt">): Promise<void>;
  find(tx: Tx, model: string, id: string): Promise<OAuthRecord | undefined>;
  findByUid(tx: Tx, model: string, uid: string): Promise<{ id: string } | undefined>;
  /** Marks it consumed once: false when it already was (a code's second use). */
  consume(tx: Tx, model: string, id: string, at: number): Promise<boolean>;
  destroy(tx: Tx, model: string, id: string): Promise<void>;
  /** Deletes every record of the grant: its tokens and codes stop working. */
  revokeGrant(tx: Tx, grantId: string): Promise<void>;
  /** Revokes the grants of every record whose scope names `resourceId`. */
  revokeResource(tx: Tx, resourceId: string): Promise<void>;
  /** Deletes what expired before `at`. */
  prune(tx: Tx, at: number): Promise<number>;
}
