/**
 * The openFinance API Framework 2.x interface at /psd2/v2 (API_VERSIONS): Consent API 2.1 for
 * account access and AIS 2.4.1 reads over the account-access consents of /v2, funds
 * confirmations (api-v2-funds.ts), and PIS 2.4.1 over the payments of /v2; creations answer 201
 * with Location and ASPSP-SCA-Approach, answers take the berlin-group profile's shapes where 2.x
 * keeps them; and Signing Basket API 2.4 over /v2's payments and consents. Consents and payments
 * are authorised in the approaches /v1 offers, OAuth2 included (a token's scope names a /v2
 * resource as it names a /v1 one); baskets as on /v1, in those but OAuth2.
 * Verification of Party 1.1 checks payees before a payment (api/v2/vop.ts).
 */
import type { FastifyInstance } from "fastify";
import { accountRoutes, type AccountRoutesOptions } from "../api/accounts.js";
import type { ScaApproachRules } from "../api/sca-approach.js";
import type { V2Sca } from "../api/v2/authorisations.js";
import { v2ConsentRoutes, type V2ConsentRoutesOptions } from "../api/v2/consents.js";
import { v2PaymentRoutes } from "../api/v2/payments.js";
import { v2BasketRoutes } from "../api/v2/signing-baskets.js";
import { v2Presenters } from "../api/v2/present.js";
import { v2OpenApiRoutes, type V2OpenApiOptions } from "../api/v2/openapi.js";
import { V2_AIS } from "../api/v2/reference.js";
import { v2VopRoutes, type V2VopRoutesOptions } from "../api/v2/vop.js";
import { createBaskets } from "../domain/basket/baskets.js";
import { createAccounts } from "../domain/consent/accounts.js";
import { createConsents } from "../domain/consent/registration.js";
import type { Deps } from "../domain/deps.js";
import { createDecoupled } from "../domain/sca/decoupled.js";
import { createEmbeddedAuthorisations } from "../domain/sca/embedded.js";
import { v2FundsRoutes } from "./api-v2-funds.js";
import { createPayments } from "../domain/payment/initiation.js";

export const API_V2_BASE = "/psd2/v2";

export type V2Shared = Pick<V2ConsentRoutesOptions, "idempotency" | "redirects" | "notifications"
  | "purposes">
  & Pick<AccountRoutesOptions, "downloads" | "downloadThreshold">
  & { fundsConsentRequired: boolean; document: Omit<V2OpenApiOptions, "base">;
    /** The bank's SCA approaches and authorisation confirmation, as /v1 offers them. */
    sca: { approaches: ScaApproachRules; confirmation: V2Sca["confirmation"] };
    /** Verification of Party 1.1: its checks and bulks, and a bulk's limits. */
    vop: Omit<V2VopRoutesOptions, "base" | "idempotency"> };

export function v2Routes(api: FastifyInstance, deps: Deps, shared: V2Shared): void {
  // First: the document publishes every /v2 route registered after it.
  v2OpenApiRoutes(api, { ...shared.document, base: API_V2_BASE });
  const consents = createConsents(deps, "v2", "account-access");
  const { idempotency, redirects, notifications, purposes } = shared;
  const presenters = v2Presenters;
  const sca: V2Sca = { approaches: shared.sca.approaches, presenters,
    embedded: createEmbeddedAuthorisations(deps), decoupled: createDecoupled(deps),
    ...(shared.sca.confirmation && { confirmation: shared.sca.confirmation }) };
  v2ConsentRoutes(api, { idempotency, redirects, notifications, purposes, base: API_V2_BASE,
    consents, presenters, sca });
  accountRoutes(api, {
    base: API_V2_BASE, accounts: createAccounts(deps, consents), presenters: v2Presenters,
    clock: deps.clock, downloads: shared.downloads, downloadThreshold: shared.downloadThreshold,
    wire: V2_AIS,
  });
  v2FundsRoutes(api, deps, { base: API_V2_BASE, idempotency, redirects, notifications, purposes,
    presenters, sca, consentRequired: shared.fundsConsentRequired });
  v2PaymentRoutes(api, { idempotency, redirects, notifications, purposes, base: API_V2_BASE,
    payments: createPayments(deps, "v2"), presenters, sca });
  v2VopRoutes(api, { ...shared.vop, base: API_V2_BASE, idempotency });
  v2BasketRoutes(api, { idempotency, redirects, notifications, purposes, base: API_V2_BASE,
    baskets: createBaskets(deps, "v2"), presenters, sca });
}
