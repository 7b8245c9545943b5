/**
 * The openFinance Consent API 2.1 for funds confirmations at /v2 (consents/funds-confirmations),
 * for card issuers with the PSP_IC role: the same funds-confirmation consent as /v1's
 * consents/confirmation-of-funds, asked for in 2.x's terms. The bank offers `detailed` consents
 * naming one payment account with the right `fundsConfirmations`, for repeated checks until
 * validTo (9999-12-31: the bank's maximum, as for account access).
 */
import type { FastifyInstance } from "fastify";
import type { Consent } from "../../domain/consent/model.js";
import type { FundsConsentInput, FundsConsents } from "../../domain/consent/funds-consents.js";
import {
  consentTypeNotSupported, parameterNotSupported,
} from "../../domain/kernel/errors.js";
import type { CreationRoute } from "../creation.js";
import type { UriRules } from "../headers.js";
import {
  ibanOf, paymentEntries, text, v2Access, type AccountAccess,
} from "./consent-body.js";
import {
  createV2Consent, v2ConsentResourceRoutes, v2ConsentRoute, v2ConsentsPath, type V2Category,
} from "./consents.js";
import type { V2Sca } from "./authorisations.js";
import { PSU_PRESENT } from "./reference.js";

export interface V2FundsConsentRoutesOptions extends CreationRoute {
  base: string;
  redirects: UriRules;
  /** The funds-confirmation consents of /v2 (createConsents(deps, "v2", "funds-confirmation")). */
  consents: V2Category["consents"];
  fundsConsents: FundsConsents;
  sca: V2Sca;
}

const RIGHT = "fundsConfirmations";
const TYPE = "detailed";

/** Shapes only; the consent type, the account and the right are judged in readFundsConsent. */
const body = {
  type: "object",
  required: ["access", "consentType", "recurringIndicator", "validTo"],
  properties: {
    access: v2Access,
    consentType: text(35),
    recurringIndicator: { type: "boolean" },
    validTo: text(10),
    cardNumber: text(35),
    // The file's ISODate: the bank only keeps it, but refuses what is no date.
    cardExpiryDate: { type: "string", format: "date" },
    cardInformation: text(140),
    registrationInformation: text(140),
  },
  additionalProperties: false,
} as const;

interface FundsConsentBody extends Omit<FundsConsentInput, "account"> {
  access: AccountAccess;
  consentType: string;
  recurringIndicator: boolean;
  validTo: string;
}

/**
 * The 2.x body as the aggregate's input. Throws CONSENT_TYPE_NOT_SUPPORTED, PARAMETER_NOT_SUPPORTED
 * or FORMAT_ERROR (with path).
 */
function readFundsConsent(request: FundsConsentBody): { input: FundsConsentInput;
  validUntil: string; } {
  const { access, consentType, recurringIndicator, validTo, ...card } = request;
  if (consentType !== TYPE) throw consentTypeNotSupported(TYPE);
  const entries = paymentEntries(access, [RIGHT]);
  if (entries.length > 1) {
    throw parameterNotSupported("access.payments",
      "A funds-confirmation consent names one payment account here.");
  }
  if (!recurringIndicator) {
    // Like /v1's, the consent answers every check on its account until validTo.
    throw parameterNotSupported("recurringIndicator",
      "This bank grants funds-confirmation consents for repeated checks until validTo: send"
        + " recurringIndicator true.");
  }
  return { input: { ...card, account: ibanOf(entries[0]!, "access.payments[0]") },
    validUntil: validTo };
}

/** The Consent API 2.1 answer of GET /v2/consents/funds-confirmations/{consentId}. */
function presentFundsConsent(consent: Consent) {
  return {
    access: { payments: consent.access.accounts.map((iban) =>
      ({ account: { iban }, rights: [RIGHT] })) },
    consentType: consent.consentType ?? TYPE,
    // The file's validTo says the GET answer carries the date as adjusted.
    validTo: consent.validUntil,
    consentStatus: consent.status,
  };
}

type ById = { Params: { consentId: string } };

export function v2FundsConsentRoutes(
  app: FastifyInstance, options: V2FundsConsentRoutesOptions,
): void {
  const { fundsConsents } = options;
  const funds: V2Category = { base: options.base, path: "funds-confirmations", role: "PSP_IC",
    consents: options.consents, sca: options.sca };
  app.post<{ Body: FundsConsentBody }>(v2ConsentsPath(funds),
    v2ConsentRoute(funds.role, { body, headers: PSU_PRESENT }),
    (request, reply) => {
      const { input, validUntil } = readFundsConsent(request.body);
      return createV2Consent(request, reply, { ...options, path: funds.path }, {
        fields: { account: "access.payments[0].account" },
        register: (tx, tpp, { redirect, explicit }) => fundsConsents.registerFundsConsent(tx, tpp,
          input, redirect, { validUntil, explicit }),
      });
    });
  app.get<ById>(`${v2ConsentsPath(funds)}/:consentId`, v2ConsentRoute(funds.role),
    async (request) => presentFundsConsent(
      await fundsConsents.getFundsConsent(request.tpp.id, request.params.consentId)));
  v2ConsentResourceRoutes(app, funds);
}
