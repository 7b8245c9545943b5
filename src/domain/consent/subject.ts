/**
 * A consent as a subject of the PSU's SCA (sca/subject.ts): an account information consent, and
 * a funds-confirmation consent (PIIS), which differs only in taking no exemption. The PSU chooses
 * among the accounts it names; one naming accounts the PSU does not hold is rejected as soon as
 * the PSU passed both factors.
 */
import type { Tx } from "../kernel/ports.js";
import type { Deps, SubjectType } from "../deps.js";
import { sha256 } from "../sca/factors.js";
import { holderOf } from "../sca/holding.js";
import type { ScaSubject } from "../sca/subject.js";
import type { SmsAccount } from "../sca/ports.js";
import { changeScaStatus } from "../sca/transitions.js";
import { decideConsent, laterSignerProblem } from "./decision.js";
import { consentChoices } from "./grants.js";
import type { Consent } from "./model.js";
import { currentConsent } from "./registration.js";
import { consentExemption } from "./sca-reuse.js";
import { awaitsSignature, moveConsent } from "./transitions.js";

/** A consent as the pages show it. */
export interface ConsentView {
  type: "consent"; consent: Consent;
  /** The signing basket that holds it, if one does: then only the basket is authorised. */
  heldBy?: string;
}

declare module "../sca/subject.js" {
  interface SubjectViews { consent: ConsentView }
}

/**
 * A consent naming accounts the PSU does not hold is rejected as soon as the PSU is known: the
 * PSU sees why on the review, the TPP sees it rejected.
 */
async function rejectForeign(
  deps: Deps, tx: Tx, consent: Consent, authorisationId: string, psuId: string,
): Promise<void> {
  if ((await consentChoices(deps, tx, psuId, consent)).foreign.length === 0) return;
  const at = deps.clock.now().toISOString();
  await moveConsent(deps, tx, consent.id, "reject", { at });
  await changeScaStatus(deps.store, tx, authorisationId, "fail", at);
}

/**
 * The PSU's accounts a consent names, as online banking names them, for its SMS; none for a
 * consent on which the PSU picks the accounts, or on all of them.
 */
async function namedAccounts(
  deps: Deps, tx: Tx, psuId: string, consent: Consent,
): Promise<SmsAccount[]> {
  const a = consent.access;
  if (a.accounts.length + a.balances.length + a.transactions.length === 0) return [];
  const { accounts } = await consentChoices(deps, tx, psuId, consent);
  return accounts.map((acc) => ({ name: acc.name ?? acc.product, iban: acc.reference }));
}

/** An account information consent; RTS art. 10a may spare a renewal the second factor. */
function accountConsentSubject(deps: Deps, view: ConsentView): ScaSubject {
  const { consent } = view;
  return {
    view, owner: consent,
    awaiting: view.heldBy === undefined && awaitsSignature(consent.status),
    closedProblem: view.heldBy === undefined ? "already_decided" : "in_basket",
    binding: sha256(`consent|${consent.id}`),
    refusedAtReview: consent.status === "rejected",
    sms: async (tx, tpp, psuId) => ({ kind: "consent", tpp, validUntil: consent.validUntil,
      accounts: await namedAccounts(deps, tx, psuId, consent) }),
    current: async (tx) =>
      consentSubject(deps, { ...view, consent: await currentConsent(deps, tx, consent) }),
    refusal: async () => null,
    signingProblem: async () => null,
    exemption: (tx, psuId) => consentExemption(deps, tx, consent, psuId),
    onAuthenticated: (tx, authorisationId, psuId) =>
      rejectForeign(deps, tx, consent, authorisationId, psuId),
    async review(tx, psuId) {
      const choices = await consentChoices(deps, tx, psuId, consent);
      const problem = consent.status === "partiallyAuthorised"
        ? await laterSignerProblem(deps, tx, psuId, consent) : null;
      return { problem, ...choices, debtor: null, executesOn: null, ownPayees: [],
        flaggedPayees: [] };
    },
    decide: (tx, ctx, decision) => decideConsent(deps, tx, ctx, consent, decision),
    // Nothing lets the PSU choose: the consent grants what it names.
    async decideWithoutReview(tx, ctx, confirm) {
      const psuId = ctx.session.psuId;
      const choices = confirm && psuId
        ? await consentChoices(deps, tx, psuId, consent) : { accounts: [] };
      return decideConsent(deps, tx, ctx, consent,
        { confirm, ibans: choices.accounts.map((a) => a.reference) });
    },
    async refuseWithoutReview(tx, ctx) {
      await decideConsent(deps, tx, ctx, consent, { confirm: false, ibans: [] });
    },
  };
}

/**
 * A funds-confirmation consent is no account information: no exemption spares its SCA (art. 10a
 * is about account information only).
 */
function fundsConsentSubject(deps: Deps, view: ConsentView): ScaSubject {
  return { ...accountConsentSubject(deps, view), exemption: null };
}

/** The subject of a consent, by its kind. */
export function consentSubject(deps: Deps, view: ConsentView): ScaSubject {
  return view.consent.kind === "funds-confirmation"
    ? fundsConsentSubject(deps, view) : accountConsentSubject(deps, view);
}

export const CONSENT_SUBJECT: SubjectType = {
  smsNames: "who gets access to the account data, and until when",
  async load(deps, tx, a) {
    const consent = await deps.store.consents.find(tx, a.resourceId);
    if (!consent) return undefined;
    const held = await holderOf(deps, tx, { type: "consent", id: consent.id });
    return consentSubject(deps, { type: "consent", consent, ...held });
  },
};
