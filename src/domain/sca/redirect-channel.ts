/**
 * The redirect channel of the SCA session machine: a session per authorisation, opened by the
 * TPP's scaRedirect link, whose context is the payment or consent being authorised. It records
 * the authorisation's scaStatus and chosen method as the PSU passes each factor.
 */
import { hashSecret } from "../../lib/ids.js";
import { totalsOf } from "../../lib/money.js";
import { BROWSER_APPROACHES, type ScaApproach } from "../../lib/sca-approaches.js";
import type { Tx } from "../ports.js";
import { awaitingItems, basketProblem } from "../basket/decision.js";
import { loadBasket } from "../basket/resource.js";
import { isOpenBasket } from "../basket/transitions.js";
import type { Consent } from "../consent/model.js";
import { consentChoices } from "../consent/grants.js";
import { consentExemption } from "../consent/sca-reuse.js";
import { awaitsPsu, type Payment } from "../payment/model.js";
import { awaitsSignature } from "../consent/transitions.js";
import { moveConsent } from "../consent/transitions.js";
import type { Deps } from "../deps.js";
import { paymentProblem, signingProblem } from "../payment/decision.js";
import { paymentExemption } from "../payment/exemptions.js";
import { rejectIfScaExpired } from "../payment/expiry.js";
import type { BasketResource, ScaResource, SessionContext } from "./context.js";
import { sha256 } from "./factors.js";
import type { Authorisation, LoginStep, Psu, ScaExemption, ScaStep } from "./model.js";
import type { SmsSubject } from "./ports.js";
import type { ScaProblem } from "./problems.js";
import { testPsuExemption } from "./test-psus.js";
import type { ScaChannel } from "./session.js";
import { changeScaStatus } from "./transitions.js";

/** The dynamic link of RTS art. 5: a code is bound to exactly this amount and payee. */
export function bindingOf(resource: ScaResource): string {
  if (resource.type === "consent") return sha256(`consent|${resource.consent.id}`);
  if (resource.type === "basket") return sha256(basketLink(resource));
  const p = resource.payment;
  const kind = resource.cancellation ? "cancellation" : "payment";
  const payee = `${p.creditorAccount.iban}|${p.creditorName}`;
  return sha256(`${kind}|${p.id}|${p.amountMinor}|${p.currency}|${payee}`);
}

/** A basket's code binds every amount and payee in it, and every consent. */
function basketLink(resource: BasketResource): string {
  const { payments, consents } = awaitingItems(resource);
  const paid = payments.map((p) =>
    `${p.id}|${p.amountMinor}|${p.currency}|${p.creditorAccount.iban}|${p.creditorName}`);
  const granted = consents.map((c) => `consent|${c.id}`);
  return ["basket", resource.basket.id, ...paid, ...granted].join("\n");
}

export function awaitingDecision(resource: ScaResource): boolean {
  if (resource.type === "basket") return isOpenBasket(resource.basket.status);
  if (resource.heldBy !== undefined) return false;
  if (resource.type === "consent") return awaitsSignature(resource.consent.status);
  const { status } = resource.payment;
  return resource.cancellation ? status === "ACTC" : awaitsPsu(status);
}

/** Why a resource no longer awaits this authorisation: a basket holds it, or it was decided. */
export function closedProblem(resource: ScaResource): ScaProblem {
  return resource.type !== "basket" && resource.heldBy !== undefined
    ? "in_basket" : "already_decided";
}

/** Why this PSU may not authorise a resource: a payment from an account not its own. */
export async function resourceProblem(
  deps: Deps, tx: Tx, psuId: string, resource: ScaResource,
): Promise<ScaProblem | null> {
  if (resource.type === "basket") return basketProblem(deps, tx, psuId, resource);
  return resource.type === "payment" ? paymentProblem(deps, tx, psuId, resource.payment) : null;
}

/** The signing basket holding a payment or consent, if one does. */
async function holder(deps: Deps, tx: Tx, type: "payment" | "consent", id: string) {
  const basketId = await deps.store.baskets.holderOf(tx, { type, id });
  return basketId === undefined ? {} : { heldBy: basketId };
}

export async function loadResource(
  deps: Deps, tx: Tx, a: Authorisation,
): Promise<ScaResource | undefined> {
  const { store } = deps;
  if (a.resourceType === "basket") return loadBasket(deps, tx, a.resourceId);
  if (a.resourceType !== "consent") {
    const payment = await store.payments.find(tx, a.resourceId);
    if (!payment) return undefined;
    const cancellation = a.resourceType === "payment-cancellation";
    // A bulk is reviewed payment by payment; its code binds its id and total.
    const entries = payment.service === "bulk-payments"
      ? await store.payments.entriesOf(tx, payment.id) : [];
    const current = await rejectIfScaExpired(deps, tx, payment);
    const held = await holder(deps, tx, "payment", payment.id);
    return { type: "payment", payment: current, cancellation, entries, ...held };
  }
  const consent = await store.consents.find(tx, a.resourceId);
  return consent && { type: "consent", consent, ...await holder(deps, tx, "consent", consent.id) };
}

/** Whose redirect URIs the PSU's browser goes back to. */
export function ownerOf(resource: ScaResource) {
  switch (resource.type) {
    case "payment": return resource.payment;
    case "consent": return resource.consent;
    case "basket": return resource.basket;
  }
}

/**
 * An authorisation with what it is about, whether or not a session is open for it yet; only of
 * `approaches`, since each channel serves its own (a redirect link never opens an embedded one).
 */
export async function authorisationContext(
  deps: Deps, tx: Tx, authorisationId: string, approaches: readonly ScaApproach[],
): Promise<Omit<SessionContext, "session"> | undefined> {
  const { store } = deps;
  const authorisation = await store.sca.findAuthorisation(tx, authorisationId);
  if (!approaches.includes(authorisation?.approach ?? "redirect")) return undefined;
  const resource = authorisation && (await loadResource(deps, tx, authorisation));
  if (!authorisation || !resource) return undefined;
  const owner = ownerOf(resource);
  return {
    authorisation, resource,
    tppName: (await store.tpps.name(tx, authorisation.tppId)) ?? authorisation.tppId,
    redirectUri: owner.redirectUri, nokRedirectUri: owner.nokRedirectUri,
  };
}

/** What the code authorises: a payment (or its cancellation), a bulk, a consent, a basket. */
function smsSubject(ctx: SessionContext): SmsSubject {
  const { resource } = ctx;
  if (resource.type === "basket") {
    const { payments, consents } = awaitingItems(resource);
    return { kind: "basket", totals: amountsOf(payments), payments: payments.length,
      consents: consents.length };
  }
  if (resource.type === "consent") {
    return { kind: "consent", tpp: ctx.tppName, validUntil: resource.consent.validUntil };
  }
  const p = resource.payment;
  if (resource.entries.length > 0 && !resource.cancellation) {
    return { kind: "bulk", totals: amountsOf(resource.entries), payees: resource.entries.length };
  }
  return { kind: resource.cancellation ? "cancellation" : "payment",
    amount: { amountMinor: p.amountMinor, currency: p.currency },
    payee: p.creditorName, iban: p.creditorAccount.iban };
}

const amountsOf = (payments: readonly Payment[]) => totalsOf(payments)
  .map(([currency, amountMinor]) => ({ currency, amountMinor }));

/** Art. 18's known device: a browser (by its cookie) this PSU passed SCA in before. */
async function knownDevice(deps: Deps, tx: Tx, psu: Psu, browser: string | undefined) {
  return browser !== undefined
    && deps.store.exemptions.isKnownDevice(tx, hashSecret(browser), psu.id);
}

/** The exemption this PSU may take on what it authorises (none on a cancellation). */
async function exemptionOf(
  deps: Deps, tx: Tx, ctx: SessionContext, psu: Psu, browser: string | undefined,
): Promise<ScaExemption | null> {
  const { resource } = ctx;
  // A basket's one SCA covers items an exemption was not reckoned for: none applies.
  if (resource.type === "basket") return null;
  const testPsu = testPsuExemption(deps, psu);
  if (resource.type === "consent") {
    return testPsu !== undefined ? testPsu : consentExemption(deps, tx, resource.consent, psu.id);
  }
  if (resource.cancellation) return null;
  // A company's user who may only see the account, or signed already, decides nothing.
  if (await signingProblem(deps, tx, psu.id, resource.payment)) return null;
  if (testPsu !== undefined) return testPsu;
  return paymentExemption(deps, tx, {
    psuId: psu.id, payment: resource.payment,
    knownDevice: await knownDevice(deps, tx, psu, browser),
  });
}

type AfterLogin = Exclude<ScaStep, LoginStep>;

export function redirectChannel(deps: Deps): ScaChannel<AfterLogin, SessionContext> {
  const { store, clock } = deps;
  const nowIso = () => clock.now().toISOString();

  /** A session the OAuth server opened goes back to it, whatever the resource's URIs. */
  async function context(tx: Tx, session: SessionContext["session"]) {
    const found = await authorisationContext(
      deps, tx, session.authorisationId, BROWSER_APPROACHES);
    if (!found) return "link_invalid" as const;
    const back = session.returnTo;
    return back ? { session, ...found, redirectUri: back, nokRedirectUri: back }
      : { session, ...found };
  }

  /**
   * A consent naming accounts the PSU does not hold is rejected as soon as the PSU is known: the
   * PSU sees why on the review, the TPP sees it rejected.
   */
  async function rejectForeign(tx: Tx, authorisationId: string, consent: Consent, psuId: string) {
    if ((await consentChoices(deps, tx, psuId, consent)).foreign.length === 0) return;
    const at = nowIso();
    await moveConsent(deps, tx, consent.id, "reject", { at });
    await changeScaStatus(store, tx, authorisationId, "fail", at);
  }

  return {
    sessions: store.scaSessions,
    authenticated: "review",
    context,
    stillOpen: (ctx) => awaitingDecision(ctx.resource),
    whyClosed: (ctx) => closedProblem(ctx.resource),
    // Right after the password: someone other than the PSU the TPP named, or than the debtor
    // account's holder, learns it before any code is spent.
    refusal: async (tx, ctx, psu) => {
      const named = ctx.authorisation.namedPsu;
      if (named && named !== psu.login) return "psu_not_named";
      return resourceProblem(deps, tx, psu.id, ctx.resource);
    },
    async exempts(tx, ctx, psu, browser) {
      const exemption = await exemptionOf(deps, tx, ctx, psu, browser);
      if (exemption) await store.exemptions.recordExemption(tx, ctx.authorisation.id, exemption);
      return exemption !== null;
    },
    binding: (ctx) => bindingOf(ctx.resource),
    smsText: (ctx, code) => deps.smsTexts.text(ctx.session.lang, smsSubject(ctx), code),
    async onIdentified(tx, ctx, psu) {
      await changeScaStatus(store, tx, ctx.authorisation.id, "identify", nowIso(), psu.id);
    },
    async onDeviceChosen(tx, ctx, device) {
      await store.sca.chooseMethod(tx, ctx.authorisation.id, device.id);
    },
    async onAuthenticated(tx, ctx, psu) {
      await changeScaStatus(store, tx, ctx.authorisation.id, "authenticate", nowIso());
      const { resource } = ctx;
      if (resource.type !== "consent") return;
      await rejectForeign(tx, ctx.authorisation.id, resource.consent, psu.id);
    },
  };
}
