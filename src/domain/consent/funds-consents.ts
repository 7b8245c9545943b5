/**
 * Funds-confirmation consents (Berlin Group PIIS consent: /v1's consents/confirmation-of-funds,
 * /v2's Consent API 2.1 consents/funds-confirmations; each through its own `consents`): the PSU
 * allows a card issuer (PSP_IC) to ask whether one account holds an amount. Registered like
 * an account-information consent and authorised on the same redirect pages, it grants only that.
 */
import { newUuid } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { Consent } from "./model.js";
import { CONSENT_CREATION } from "./transitions.js";
import { validUntilOf, type Consents, type RegisteredConsent } from "./registration.js";
import type { RedirectTargets, StoreDeps, TppRef } from "../deps.js";
import {
  accountNotCovered, consentUnusable, formatError, fundsConsentUnknown,
} from "../kernel/errors.js";
import { readAccount, type AccountInput } from "../payment/rules.js";

export interface FundsConsentInput {
  account: AccountInput;
  cardNumber?: string;
  cardExpiryDate?: string;
  cardInformation?: string;
  registrationInformation?: string;
}

/**
 * How a funds-confirmation consent is asked for beyond its body: until when (none: as long as the
 * bank allows), and without an authorisation when the TPP starts it itself.
 */
export interface FundsConsentTerms { validUntil?: string; explicit?: boolean }

/** What a funds-confirmation consent works with besides the consents' use cases. */
type FundsConsentDeps = StoreDeps<"db" | "consents" | "sca", "core" | "clock" | "settings">;

/** A funds-confirmation consent as registered: received, for one account. */
function newFundsConsent(
  tpp: TppRef, iban: string, redirect: RedirectTargets, c: { at: string; validUntil: string },
): Consent {
  return {
    id: newUuid(), tppId: tpp.id, status: CONSENT_CREATION.create.to, psuId: null,
    kind: "funds-confirmation",
    access: {
      accounts: [iban], balances: [], transactions: [],
      availableAccounts: null, availableAccountsWithBalance: null, allPsd2: null,
    },
    // Not recurring: granting it must not end the PSU's account-information consent.
    recurringIndicator: false, frequencyPerDay: 1, combinedServiceIndicator: false,
    validUntil: c.validUntil,
    redirectUri: redirect.redirectUri, nokRedirectUri: redirect.nokRedirectUri,
    createdAt: c.at, updatedAt: c.at, authorisedAt: null,
  };
}

export function createFundsConsents(deps: FundsConsentDeps, consents: Consents) {
  const { store, core, clock } = deps;

  /**
   * Throws FORMAT_ERROR (with path) for a malformed account or one not held at this bank, or a
   * validUntil before today; one beyond the bank's maximum is adjusted down.
   */
  async function registerFundsConsent(
    tx: Tx, tpp: TppRef, input: FundsConsentInput, redirect: RedirectTargets,
    terms: FundsConsentTerms = {},
  ): Promise<RegisteredConsent> {
    const reference = readAccount(input.account, "account");
    if (!(await core.findAccountByIban(tx, reference.iban))) {
      throw formatError("body", "account", "The account is not held at this bank.");
    }
    const now = clock.now();
    const consent = newFundsConsent(tpp, reference.iban, redirect,
      { at: now.toISOString(), validUntil: validUntilOf(deps, now, terms.validUntil) });
    return consents.insertConsent(tx, consent, redirect, terms.explicit ?? false);
  }

  /** The TPP's funds-confirmation consent; an account-information consent is unknown here. */
  async function getFundsConsent(tppId: string, consentId: string): Promise<Consent> {
    const consent = await consents.getConsent(tppId, consentId, "path");
    if (consent.kind !== "funds-confirmation") {
      throw fundsConsentUnknown();
    }
    return consent;
  }

  /**
   * The gate of a funds confirmation: a valid funds-confirmation consent of this TPP for the
   * account asked about. Throws FORMAT_ERROR, CONSENT_UNKNOWN, CONSENT_INVALID or CONSENT_EXPIRED.
   */
  async function requireConsent(
    tppId: string, consentId: string | undefined, asked: AccountInput,
  ): Promise<void> {
    const { iban } = readAccount(asked, "account");
    if (!consentId) {
      throw formatError("header", "Consent-ID",
        "This bank confirms funds only within a consent: send its Consent-ID.");
    }
    const { consent, granted } = await consents.usableConsent(tppId, consentId);
    if (consent.kind !== "funds-confirmation") {
      throw consentUnusable("This is not a funds-confirmation consent.");
    }
    const account = await core.findAccountByIban(store.db, iban);
    if (!account || !granted.some((g) => g.accountId === account.id)) {
      throw accountNotCovered();
    }
  }

  /** The consent's authorisations, oldest first; RESOURCE_UNKNOWN like getFundsConsent. */
  async function listAuthorisations(tppId: string, consentId: string) {
    const consent = await getFundsConsent(tppId, consentId);
    return store.sca.authorisationsOf(store.db, consent.id);
  }

  return { registerFundsConsent, getFundsConsent, requireConsent, listAuthorisations };
}

export type FundsConsents = ReturnType<typeof createFundsConsents>;

/** The bank's consent rule for funds confirmations, when it requires one. */
export type FundsConsentGate = FundsConsents["requireConsent"];
