/**
 * /v2's funds confirmations: Consent API 2.1 funds-confirmation consents and the PIIS 2.4.1
 * funds confirmation, over the funds-confirmation consents created through /v2. Without
 * FUNDS_CONFIRMATION_CONSENT_REQUIRED the bank answers without a consent, as on /v1 (PIIS 2.4.1
 * makes Consent-ID optional).
 */
import type { FastifyInstance } from "fastify";
import { fundsConfirmationRoutes } from "../api/funds-confirmations.js";
import { v2FundsConsentRoutes, type V2FundsConsentRoutesOptions } from "../api/v2/funds.js";
import { CONSENT_NAMED, V2_PIIS } from "../api/v2/reference.js";
import { createFundsConfirmations } from "../domain/consent/funds-confirmations.js";
import { createFundsConsents } from "../domain/consent/funds-consents.js";
import { createConsents } from "../domain/consent/registration.js";
import type { Deps } from "../domain/deps.js";

export type V2FundsShared = Pick<V2FundsConsentRoutesOptions,
  "base" | "idempotency" | "redirects" | "notifications" | "purposes" | "presenters" | "sca">
  & { consentRequired: boolean };

export function v2FundsRoutes(api: FastifyInstance, deps: Deps, shared: V2FundsShared): void {
  const { consentRequired, ...routes } = shared;
  const consents = createConsents(deps, "v2", "funds-confirmation");
  const fundsConsents = createFundsConsents(deps, consents);
  v2FundsConsentRoutes(api, { ...routes, consents, fundsConsents });
  fundsConfirmationRoutes(api, { base: shared.base, funds: createFundsConfirmations(deps),
    consentGate: consentRequired ? fundsConsents.requireConsent : undefined, wire: V2_PIIS,
    headers: CONSENT_NAMED });
}
