/** Consents and the accounts a PSU granted in them, always scoped to the TPP. */
import { sql, type Selectable } from "kysely";
import type {
  Consent, ConsentStatus, ConsentType, GrantedAccount,
} from "../domain/consent/model.js";
import type {
  ConsentChange, ConsentRepository, ConsentWithGrants, LapseChange, StatusMove,
} from "../domain/consent/ports.js";
import { groupBy } from "../lib/group.js";
import { compiledQuery } from "./compiled.js";
import type { Tx } from "./handle.js";

const LAPSE_COLUMN = { validUntil: "valid_until", createdAt: "created_at" } as const;
import type { ConsentTable } from "./schema.js";
import { withSignature } from "./signatures.js";

/** The flags are null only in a joined row without a grant, which has no account either. */
type GrantRow = { account_id: string; balances: Flag | null; transactions: Flag | null };
type Flag = number | boolean;

function toGrant(row: GrantRow): GrantedAccount {
  return {
    accountId: row.account_id, balances: Boolean(row.balances),
    transactions: Boolean(row.transactions),
  };
}

function toConsent(row: Selectable<ConsentTable>): Consent {
  return {
    id: row.id,
    tppId: row.tpp_id,
    status: row.status as ConsentStatus,
    psuId: row.psu_id,
    access: JSON.parse(row.access),
    recurringIndicator: Boolean(row.recurring),
    validUntil: row.valid_until,
    frequencyPerDay: row.frequency_per_day,
    combinedServiceIndicator: Boolean(row.combined),
    redirectUri: row.redirect_uri,
    nokRedirectUri: row.nok_redirect_uri,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    authorisedAt: row.authorised_at,
    signaturesRequired: Number(row.signatures_required), signatures: Number(row.signatures),
    ...(row.kind === "funds-confirmation" ? { kind: row.kind } : {}),
    ...(row.api_version === "v2" ? { apiVersion: "v2" } : {}),
    ...(row.consent_type ? { consentType: row.consent_type as ConsentType } : {}),
  };
}

// Compiled once: every account read asks for its consent and grants (db.ts shares the answers).
const consentForTpp = compiledQuery(["id", "tppId"] as const,
  (tx, p: { id: string; tppId: string }) => tx.selectFrom("consents").selectAll()
    .where("id", "=", p.id).where("tpp_id", "=", p.tppId));

const grantsOf = compiledQuery(["consentId"] as const,
  (tx, p: { consentId: string }) => tx.selectFrom("consent_accounts").selectAll()
    .where("consent_id", "=", p.consentId).orderBy("account_id"));

/**
 * The consent with its grants in one statement: one round trip on PostgreSQL instead of two, a
 * row per grant (one with null grant columns where there is none).
 */
const consentWithGrants = compiledQuery(["id", "tppId"] as const,
  (tx, p: { id: string; tppId: string }) => tx.selectFrom("consents")
    .leftJoin("consent_accounts", "consent_accounts.consent_id", "consents.id")
    .selectAll("consents")
    .select(["consent_accounts.account_id", "consent_accounts.balances",
      "consent_accounts.transactions"])
    .where("consents.id", "=", p.id).where("consents.tpp_id", "=", p.tppId)
    .orderBy("consent_accounts.account_id"));

/** consentWithGrants for many consents, of any TPP (the shared reads' batch, PostgreSQL only). */
const consentsWithGrants = compiledQuery(["ids"] as const,
  (tx, p: { ids: readonly string[] }) => tx.selectFrom("consents")
    .leftJoin("consent_accounts", "consent_accounts.consent_id", "consents.id")
    .selectAll("consents")
    .select(["consent_accounts.account_id", "consent_accounts.balances",
      "consent_accounts.transactions"])
    .where(sql<boolean>`consents.id = any(${p.ids})`)
    .orderBy("consents.id").orderBy("consent_accounts.account_id"));

type ConsentGrantRow = Selectable<ConsentTable>
  & { account_id: string | null; balances: Flag | null; transactions: Flag | null };

/** A consent's rows of the join (one per grant) as the consent with its grants. */
function withGrants(rows: ConsentGrantRow[]): ConsentWithGrants {
  const granted = rows.flatMap((r) => (r.account_id === null ? []
    : [toGrant({ ...r, account_id: r.account_id })]));
  return { consent: toConsent(rows[0]!), granted };
}

/**
 * The consents of `ids` with their grants, of any TPP, by id: the shared reads' batch
 * (PostgreSQL only), whose callers each keep only their own TPP's (cached-reads.ts).
 */
export async function consentsWithGrantsById(
  tx: Tx, ids: readonly string[],
): Promise<Map<string, ConsentWithGrants>> {
  const { rows } = await consentsWithGrants(tx, { ids });
  return new Map([...groupBy(rows, (row) => row.id)].map(([id, own]) => [id, withGrants(own)]));
}

export const consentRepository = {
  async insert(tx: Tx, c: Consent): Promise<void> {
    await tx.insertInto("consents").values({
      id: c.id, tpp_id: c.tppId, status: c.status, psu_id: c.psuId,
      access: JSON.stringify(c.access), recurring: c.recurringIndicator ? 1 : 0,
      valid_until: c.validUntil, frequency_per_day: c.frequencyPerDay,
      combined: c.combinedServiceIndicator ? 1 : 0, redirect_uri: c.redirectUri,
      nok_redirect_uri: c.nokRedirectUri, created_at: c.createdAt, updated_at: c.updatedAt,
      authorised_at: c.authorisedAt, kind: c.kind ?? null,
      signatures_required: c.signaturesRequired ?? 1,
      api_version: c.apiVersion ?? null, consent_type: c.consentType ?? null,
    }).execute();
  },

  async findForTpp(tx: Tx, id: string, tppId: string): Promise<Consent | undefined> {
    const { rows: [row] } = await consentForTpp(tx, { id, tppId });
    return row && toConsent(row);
  },

  /** The operator's search across TPPs, newest first; an account matches where it was granted. */
  async search(
    tx: Tx, q: { tppId?: string; psuId?: string; accountId?: string; limit: number },
  ): Promise<Consent[]> {
    let query = tx.selectFrom("consents").selectAll();
    if (q.tppId !== undefined) query = query.where("tpp_id", "=", q.tppId);
    if (q.psuId !== undefined) query = query.where("psu_id", "=", q.psuId);
    const accountId = q.accountId;
    if (accountId !== undefined) {
      query = query.where("id", "in", tx.selectFrom("consent_accounts").select("consent_id")
        .where("account_id", "=", accountId));
    }
    const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(q.limit).execute();
    return rows.map(toConsent);
  },

  async find(tx: Tx, id: string): Promise<Consent | undefined> {
    const row = await tx.selectFrom("consents").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toConsent(row);
  },

  /** Compare-and-set on the status; returns whether this call made the change. */
  async transition(
    tx: Tx, id: string, from: readonly ConsentStatus[], to: ConsentStatus,
    change: ConsentChange,
  ): Promise<boolean> {
    let update = tx.updateTable("consents").set({ status: to, updated_at: change.at })
      .where("id", "=", id).where("status", "in", [...from]);
    update = withSignature(update, change.signaturesBefore);
    if (change.signaturesRequired !== undefined) {
      update = update.set({ signatures_required: change.signaturesRequired });
    }
    if (change.psuId !== undefined) update = update.set({ psu_id: change.psuId });
    if (change.authorisedAt !== undefined) {
      update = update.set({ authorised_at: change.authorisedAt });
    }
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async grantAccounts(tx: Tx, consentId: string, grants: readonly GrantedAccount[]): Promise<void> {
    if (grants.length === 0) return;
    await tx.insertInto("consent_accounts").values(grants.map((g) => ({
      consent_id: consentId, account_id: g.accountId,
      balances: g.balances ? 1 : 0, transactions: g.transactions ? 1 : 0,
    }))).execute();
  },

  async grantedAccounts(tx: Tx, consentId: string): Promise<GrantedAccount[]> {
    const { rows } = await grantsOf(tx, { consentId });
    return rows.map(toGrant);
  },

  async findForTppWithGrants(
    tx: Tx, id: string, tppId: string,
  ): Promise<ConsentWithGrants | undefined> {
    const { rows } = await consentWithGrants(tx, { id, tppId });
    return rows.length === 0 ? undefined : withGrants(rows);
  },

  /**
   * Compare-and-set on every consent in one of `from` whose `field` is before `before`: a lapse
   * rule of the domain's, applied in one statement; returns how many changed.
   */
  async transitionWhere(
    tx: Tx, rule: LapseChange, at: string,
  ): Promise<string[]> {
    const rows = await tx.updateTable("consents").set({ status: rule.to, updated_at: at })
      .where("status", "in", [...rule.from]).where(LAPSE_COLUMN[rule.field], "<", rule.before)
      .returning("id").execute();
    return rows.map((row) => row.id);
  },

  /** Compare-and-set on the PSU's other recurring consents at the same TPP. */
  async transitionOtherRecurring(
    tx: Tx, keep: Consent, psuId: string, change: StatusMove, at: string,
  ): Promise<string[]> {
    const rows = await tx.updateTable("consents").set({ status: change.to, updated_at: at })
      .where("tpp_id", "=", keep.tppId).where("psu_id", "=", psuId).where("recurring", "=", 1)
      .where("status", "in", [...change.from]).where("id", "!=", keep.id).returning("id")
      .execute();
    return rows.map((row) => row.id);
  },
} satisfies ConsentRepository;
