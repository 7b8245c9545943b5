/**
 * Consent use cases on the TPP side: register, read status, and check a Consent-ID before an
 * account read. The PSU's side (grant, reject) lives in authorisation.ts.
 */
import { addDays, dateInZone, isIsoDate } from "../../lib/clock.js";
import { newUuid } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import {
  awaitsSignature, CONSENT_CREATION, CONSENT_TRANSITIONS, lapseConsents, lapseOf, lapseRules,
  moveConsent, type LapseRule,
} from "./transitions.js";
import type {
  Consent, ConsentKind, ConsentType, GrantedAccount, RequestedAccess,
} from "./model.js";
import { createdThrough, requireInterface, type ApiInterface } from "../kernel/interface.js";
import type { Deps, LaterSca, RedirectTargets, TppRef } from "../deps.js";
import {
  authorisationOver, bankOfferedNotEmbedded, consentExpired, consentOfOtherKind, consentUnknown,
  consentUnusable,
  formatError, noWayBack, referenceUnknown, resourceUnknown, type Origin,
} from "../kernel/errors.js";
import { chosenScaMethod } from "../sca/factors.js";
import { namedCorporate } from "../signatures/signatures.js";
import { isBankOffered } from "./grants.js";
import { readAccount, type AccountInput } from "../payment/rules.js";
import { isValidPan, readMaskedPan } from "../../lib/pan.js";
import { refuseIfHeld } from "../sca/holding.js";
import { startAuthorisation } from "../sca/start.js";
import type { ConsentWithGrants } from "./ports.js";

export interface ConsentInput {
  access: {
    accounts?: AccountInput[];
    balances?: AccountInput[];
    transactions?: AccountInput[];
    availableAccounts?: string;
    availableAccountsWithBalance?: string;
    allPsd2?: string;
  };
  recurringIndicator: boolean;
  validUntil: string;
  frequencyPerDay: number;
  combinedServiceIndicator: boolean;
}

/** A granted account or card with the reference a TPP knows it by. */
export interface GrantedReference extends GrantedAccount {
  reference: { iban: string } | { maskedPan: string };
  currency: string;
}

export interface ConsentDetails {
  consent: Consent; granted: GrantedReference[]; lastActionDate: string;
}

/**
 * Without an authorisation when the TPP starts it itself
 * (TPP-Explicit-Authorisation-Preferred).
 */
export interface RegisteredConsent {
  consent: Consent; scaRedirect: string | null; authorisationId: string | null;
}

/** A consent with the IBANs granted in it and its last action's date, as the TPP and PSU see it. */
export async function detailsOf(deps: Deps, tx: Tx, consent: Consent): Promise<ConsentDetails> {
  const granted: GrantedReference[] = [];
  for (const grant of await deps.store.consents.grantedAccounts(tx, consent.id)) {
    const account = await deps.core.getAccount(tx, grant.accountId);
    const card = account ? undefined : await deps.core.getCardAccount(tx, grant.accountId);
    if (account) {
      granted.push({ ...grant, reference: { iban: account.iban }, currency: account.currency });
    }
    if (card) {
      granted.push({ ...grant, reference: { maskedPan: card.maskedPan }, currency: card.currency });
    }
  }
  const lastActionDate = dateInZone(new Date(consent.updatedAt), deps.settings.timeZone);
  return { consent, granted, lastActionDate };
}

const FLAG_VALUES = ["allAccounts", "allAccountsWithOwnerName"];

/** An account by IBAN, or a card account by {"maskedPan": ...}; both kept as one string. */
function readReference(input: AccountInput, path: string): string {
  if (typeof input !== "object" || input.maskedPan === undefined) {
    return readAccount(input, path).iban;
  }
  const masked = typeof input.maskedPan === "string" ? readMaskedPan(input.maskedPan) : null;
  if (masked === null || input.iban !== undefined) {
    throw formatError("body", `${path}.maskedPan`,
      "Give a card account as {\"maskedPan\": \"525412******3241\"}"
        + " (first digits, '*', last four).");
  }
  return masked;
}

const NAMED_LISTS = ["accounts", "balances", "transactions"] as const;

/** A card named by its PAN, as by the masked PAN of the card that number belongs to. */
async function cardByPan(deps: Deps, tx: Tx, input: AccountInput, path: string) {
  if (typeof input !== "object" || input.pan === undefined) return input;
  if (typeof input.pan !== "string" || !isValidPan(input.pan)
    || input.iban !== undefined || input.maskedPan !== undefined) {
    throw formatError("body", `${path}.pan`,
      "Give a card account as {\"pan\": \"5254120000013241\"} (a valid card number), alone.");
  }
  const card = await deps.core.findCardAccount(tx, { pan: input.pan });
  if (!card) throw referenceUnknown(`${path}.pan`, "No card with this number is issued here.");
  const { pan: _, ...rest } = input;
  return { ...rest, maskedPan: card.maskedPan };
}

/** The access asked for, each card named by PAN named by its masked PAN instead. */
async function withCardsByPan(
  deps: Deps, tx: Tx, access: ConsentInput["access"],
): Promise<ConsentInput["access"]> {
  const named: ConsentInput["access"] = { ...access };
  for (const list of NAMED_LISTS) {
    const entries = access[list];
    if (entries === undefined) continue;
    named[list] = await Promise.all(
      entries.map((entry, i) => cardByPan(deps, tx, entry, `access.${list}[${i}]`)));
  }
  return named;
}

function readIbans(list: AccountInput[] | undefined, path: string): string[] {
  return (list ?? []).map((a, i) => readReference(a, `${path}[${i}]`));
}

function readAccess(input: ConsentInput["access"]): RequestedAccess {
  const access: RequestedAccess = {
    accounts: readIbans(input.accounts, "access.accounts"),
    balances: readIbans(input.balances, "access.balances"),
    transactions: readIbans(input.transactions, "access.transactions"),
    availableAccounts: input.availableAccounts ?? null,
    availableAccountsWithBalance: input.availableAccountsWithBalance ?? null,
    allPsd2: input.allPsd2 ?? null,
  };
  for (const flag of ["availableAccounts", "availableAccountsWithBalance", "allPsd2"] as const) {
    const value = access[flag];
    if (value !== null && !FLAG_VALUES.includes(value)) {
      throw formatError("body", `access.${flag}`, `Must be one of ${FLAG_VALUES.join(", ")}.`);
    }
  }
  const named = access.accounts.length + access.balances.length + access.transactions.length > 0;
  const flagged = access.availableAccounts ?? access.availableAccountsWithBalance ?? access.allPsd2;
  if (named && flagged) {
    throw formatError("body", "access",
      "Name accounts or use a flag (allPsd2, availableAccounts), not both.");
  }
  const bankOffered = input.accounts !== undefined || input.balances !== undefined
    || input.transactions !== undefined;
  if (!named && !flagged && !bankOffered) {
    throw formatError("body", "access", "Ask for accounts, balances, transactions or a flag.");
  }
  return access;
}

/**
 * The last day of a consent asked to run until `asked` (none: as long as the bank allows): a date
 * today or later, adjusted down to the bank's maximum. Throws FORMAT_ERROR (validUntil).
 */
export function validUntilOf(
  { settings }: Pick<Deps, "settings">, now: Date, asked?: string,
): string {
  const today = dateInZone(now, settings.timeZone);
  const latest = addDays(today, settings.consentValidityDaysMax);
  if (asked === undefined) return latest;
  if (!isIsoDate(asked) || asked < today) {
    throw formatError("body", "validUntil",
      "validUntil must be a date (YYYY-MM-DD), today or later.");
  }
  return asked > latest ? latest : asked;
}

/** The consent's frequency as asked. Throws FORMAT_ERROR (with path). */
function checkFrequency(input: ConsentInput): void {
  if (!Number.isInteger(input.frequencyPerDay) || input.frequencyPerDay < 1) {
    throw formatError("body", "frequencyPerDay",
      "frequencyPerDay must be an integer of at least 1.");
  }
  if (!input.recurringIndicator && input.frequencyPerDay !== 1) {
    throw formatError("body", "frequencyPerDay",
      "A one-off consent (recurringIndicator false) has frequencyPerDay 1.");
  }
}

const startFor = (
  deps: Deps, tx: Tx, consent: Consent, redirect: RedirectTargets, at: string,
) => startAuthorisation(deps, tx,
  { resourceType: "consent", page: "consent", resourceId: consent.id, tppId: consent.tppId },
  redirect, at);

/** The last rules made: every read of a consent asks, and several arrive within a millisecond. */
let lastRules: { ms: number; settings: Deps["settings"] | null; rules: readonly LapseRule[] } =
  { ms: Number.NaN, settings: null, rules: [] };

function lapseRulesAt(settings: Deps["settings"], now: Date): readonly LapseRule[] {
  const ms = now.getTime();
  if (lastRules.ms === ms && lastRules.settings === settings) return lastRules.rules;
  const minutes = settings.consentAuthorisationMinutes;
  const authorisationCutoff = new Date(ms - minutes * 60_000).toISOString();
  const rules = lapseRules(dateInZone(now, settings.timeZone), authorisationCutoff);
  rules.forEach((rule) => Object.freeze(rule));
  lastRules = { ms, settings, rules: Object.freeze(rules) };
  return rules;
}

/** A consent as it stands now: expired or rejected first when it has lapsed (in `tx`). */
export async function currentConsent(deps: Deps, tx: Tx, consent: Consent): Promise<Consent> {
  const now = deps.clock.now();
  const lapse = lapseOf(consent, lapseRulesAt(deps.settings, now));
  if (!lapse) return consent;
  await moveConsent(deps, tx, consent.id, lapse.event, { at: now.toISOString() });
  return { ...consent, status: CONSENT_TRANSITIONS[lapse.event].to };
}

/** The sweep behind the checks on use: expires lapsed consents, rejects never-authorised ones. */
async function sweepConsents(deps: Deps): Promise<{ expired: number; rejected: number }> {
  const { store, clock, settings } = deps;
  const now = clock.now();
  const at = now.toISOString();
  return store.transaction(async (tx) => {
    const [expired = 0, rejected = 0] =
      await lapseConsents(deps, tx, lapseRulesAt(settings, now), at);
    return { expired, rejected };
  });
}

/** What a consent gives: account access, or funds confirmations. */
const kindOf = (consent: Pick<Consent, "kind">): ConsentKind =>
  consent.kind ?? "account-access";

/** What a consent records of the interface that created it (and on /v2, its consentType). */
const recordedAs = (version: ApiInterface, consentType: ConsentType | undefined) =>
  (version === "v2" ? { ...createdThrough(version), consentType: consentType ?? "detailed" } : {});

/** Throws CONSENT_INVALID or CONSENT_EXPIRED unless the consent is valid. */
function refuseUnusable(consent: Consent): void {
  switch (consent.status) {
    case "valid":
      return;
    case "received":
      throw consentUnusable("The PSU has not authorised this consent yet.");
    case "partiallyAuthorised":
      throw consentUnusable("Not every signature this consent needs has been given yet.");
    case "rejected":
      throw consentUnusable("The PSU rejected this consent.");
    case "revokedByPsu":
      throw consentUnusable("The PSU revoked this consent.");
    case "expired":
    case "terminatedByTpp":
      throw consentExpired(consent.status);
  }
}

/**
 * The TPP's reads of its consents through one interface (and, where `kind` is given, of that kind
 * alone), each expiring the consent first when it has lapsed.
 */
function createConsentReads(deps: Deps, version: ApiInterface, kind?: ConsentKind) {
  const { store } = deps;

  /**
   * The TPP's consent, expiring it first when its last day has passed. One created through the
   * other interface, or of another kind than asked, is refused as unknown here (CONSENT_UNKNOWN,
   * saying where it lives or what it is).
   */
  async function getConsent(tppId: string, consentId: string, origin: Origin): Promise<Consent> {
    return checkedConsent(await store.consents.findForTpp(store.db, consentId, tppId), origin);
  }

  async function checkedConsent(consent: Consent | undefined, origin: Origin): Promise<Consent> {
    if (!consent) throw consentUnknown(origin);
    requireInterface(consent, version, () => consentUnknown(origin), "consent");
    if (kind !== undefined && kindOf(consent) !== kind) {
      throw consentOfOtherKind(origin, kindOf(consent), kind);
    }
    return currentConsent(deps, store.db, consent);
  }

  /**
   * The consent behind a Consent-ID header, usable for account reads, with its grants (read
   * with it: one round trip on PostgreSQL).
   * Throws CONSENT_UNKNOWN (400), CONSENT_INVALID or CONSENT_EXPIRED (401).
   */
  async function usableConsent(tppId: string, consentId: string): Promise<ConsentWithGrants> {
    const found = await store.consents.findForTppWithGrants(store.db, consentId, tppId);
    if (!found) throw consentUnknown("header");
    const consent = await checkedConsent(found.consent, "header");
    refuseUnusable(consent);
    return { consent, granted: found.granted };
  }

  /** The consent with the IBANs the PSU granted. Throws CONSENT_UNKNOWN (403, path). */
  async function consentDetails(tppId: string, consentId: string): Promise<ConsentDetails> {
    const consent = await getConsent(tppId, consentId, "path");
    return detailsOf(deps, store.db, consent);
  }

  /**
   * The consent's authorisation sub-resources, oldest first. Throws CONSENT_UNKNOWN (403,
   * path).
   */
  async function listAuthorisations(tppId: string, consentId: string) {
    const consent = await getConsent(tppId, consentId, "path");
    return store.sca.authorisationsOf(store.db, consent.id);
  }

  /** One of the consent's authorisations with the PSU's chosen method; else RESOURCE_UNKNOWN. */
  async function getAuthorisation(tppId: string, consentId: string, authorisationId: string) {
    const all = await listAuthorisations(tppId, consentId);
    const found = all.find((a) => a.id === authorisationId);
    if (!found) throw resourceUnknown("authorisation");
    return { ...found, chosenScaMethod: await chosenScaMethod(deps, found.id) };
  }

  return { getConsent, usableConsent, consentDetails, listAuthorisations, getAuthorisation };
}

/**
 * Whether an approach gives the PSU no bank page to choose accounts on: a bank-offered consent
 * (empty account lists) cannot be authorised there, or the PSU would grant what it never chose.
 */
const needsBankPages = (approach: string | undefined) =>
  approach === "embedded" || approach === "decoupled";

/** The access asked for; a bank-offered one needs the bank's pages. */
function accessFor(input: ConsentInput, redirect: RedirectTargets): RequestedAccess {
  const access = readAccess(input.access);
  if (needsBankPages(redirect.approach) && isBankOffered({ access })) {
    throw bankOfferedNotEmbedded();
  }
  return access;
}

/**
 * How a consent is created: without an authorisation; for a company (PSU-Corporate-ID); on /v2,
 * its consentType.
 */
export interface ConsentCreation {
  explicit?: boolean; corporateId?: string | null; consentType?: ConsentType;
}

/**
 * The signatures a consent needs, as far as known before the PSU chooses: the most any account
 * it names needs, or, for a company named without accounts, the most any of its accounts needs.
 */
async function signaturesForAccess(
  deps: Deps, tx: Tx, access: RequestedAccess, corporateId: string | null,
): Promise<number> {
  const corporate = await namedCorporate(deps, tx, corporateId);
  const named = [...new Set([...access.accounts, ...access.balances, ...access.transactions])];
  const accounts = named.length > 0
    ? await Promise.all(named.map((iban) => deps.core.findAccountByIban(tx, iban)))
    : corporate ? await deps.core.listAccountsOfPsu(tx, corporate.id) : [];
  return Math.max(1, ...accounts.map((a) => a?.signaturesRequired ?? 1));
}

/** A consent as registered: received, its frequency within the bank's limits. */
function newConsent({ settings }: Pick<Deps, "settings">, c: {
  tpp: TppRef; input: ConsentInput; access: RequestedAccess; redirect: RedirectTargets; now: Date;
  validUntil: string; signaturesRequired: number; consentType?: ConsentType;
}): Consent {
  const { input, redirect } = c;
  const at = c.now.toISOString();
  return {
    id: newUuid(), tppId: c.tpp.id, status: CONSENT_CREATION.create.to, psuId: null,
    access: c.access,
    recurringIndicator: input.recurringIndicator,
    validUntil: c.validUntil,
    frequencyPerDay: Math.min(input.frequencyPerDay, settings.frequencyPerDayMax),
    combinedServiceIndicator: input.combinedServiceIndicator,
    redirectUri: redirect.redirectUri, nokRedirectUri: redirect.nokRedirectUri,
    createdAt: at, updatedAt: at, authorisedAt: null,
    signaturesRequired: c.signaturesRequired, signatures: 0,
    ...(c.consentType ? { consentType: c.consentType } : {}),
  };
}

/**
 * The TPP's consent use cases through one interface (`version`): what it registers is recorded as
 * created there, and it reads and changes only the consents created there (of `kind`, if given).
 */
export function createConsents(deps: Deps, version: ApiInterface = "v1", kind?: ConsentKind) {
  const { store, clock } = deps;
  const reads = createConsentReads(deps, version, kind);

  /** Throws FORMAT_ERROR (with path). validUntil beyond the bank's maximum is adjusted down. */
  async function registerConsent(
    tx: Tx, tpp: TppRef, input: ConsentInput, redirect: RedirectTargets,
    { explicit = false, corporateId = null, consentType }: ConsentCreation = {},
  ): Promise<RegisteredConsent> {
    const now = clock.now();
    const validUntil = validUntilOf(deps, now, input.validUntil);
    checkFrequency(input);
    const named = { ...input, access: await withCardsByPan(deps, tx, input.access) };
    const access = accessFor(named, redirect);
    const signaturesRequired = await signaturesForAccess(deps, tx, access, corporateId);
    const consent = newConsent(deps,
      { tpp, input, access, redirect, now, validUntil, signaturesRequired, consentType });
    return insertConsent(tx, consent, redirect, explicit);
  }

  /**
   * Stores a new consent as created through this interface, with the implicit authorisation the
   * PSU completes on the redirect pages unless the TPP starts one itself (`explicit`).
   */
  async function insertConsent(
    tx: Tx, consent: Consent, redirect: RedirectTargets, explicit: boolean,
  ): Promise<RegisteredConsent> {
    const recorded = { ...consent, ...recordedAs(version, consent.consentType) };
    await store.consents.insert(tx, recorded);
    // Multi-level SCA: every user's authorisation is started alike, by the TPP (Berlin Group).
    if (explicit || (recorded.signaturesRequired ?? 1) > 1) {
      return { consent: recorded, scaRedirect: null, authorisationId: null };
    }
    return {
      consent: recorded, ...await startFor(deps, tx, recorded, redirect, recorded.createdAt),
    };
  }

  return {
    ...reads, registerConsent, insertConsent, ...createConsentChanges(deps, reads),
    sweepConsents: () => sweepConsents(deps),
  };
}

/** The TPP's changes to a consent it registered: another authorisation, its termination. */
function createConsentChanges(deps: Deps, reads: ReturnType<typeof createConsentReads>) {
  const { store, clock } = deps;

  /**
   * POST authorisations: an authorisation the PSU completes on the redirect pages, back to the
   * consent's redirect URIs. Throws STATUS_INVALID once the consent is no longer received, and
   * RESOURCE_BLOCKED while a signing basket holds it.
   */
  async function authoriseConsent(tppId: string, consentId: string, sca: LaterSca) {
    const consent = await reads.getConsent(tppId, consentId, "path");
    if (!awaitsSignature(consent.status)) {
      throw authorisationOver("consent", consent.status);
    }
    const { redirectUri, nokRedirectUri } = consent;
    const approach = sca.approach ?? "redirect";
    if (approach === "redirect" && redirectUri === "") throw noWayBack();
    if (needsBankPages(approach) && isBankOffered(consent)) throw bankOfferedNotEmbedded();
    const redirect = { ...sca, redirectUri, nokRedirectUri };
    return store.transaction(async (tx) => {
      await refuseIfHeld(deps, tx, { type: "consent", id: consent.id });
      return startFor(deps, tx, consent, redirect, clock.now().toISOString());
    });
  }

  /** DELETE by the TPP: ends a received or valid consent; ending an ended one changes nothing. */
  async function terminate(tppId: string, consentId: string): Promise<void> {
    const consent = await reads.getConsent(tppId, consentId, "path");
    await store.transaction(async (tx) => {
      await refuseIfHeld(deps, tx, { type: "consent", id: consent.id });
      await moveConsent(deps, tx, consent.id, "terminate", { at: clock.now().toISOString() });
    });
  }

  return { authoriseConsent, terminate };
}

export type Consents = ReturnType<typeof createConsents>;
