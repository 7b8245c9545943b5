/**
 * The Deps every use case receives: the store, the core banking system, the clock, the settings
 * the domain reads, and the adapters the pages and the scheme bring (links, passwords, SMS texts,
 * Verification of Payee), with the subjects a PSU authorises.
 */
import type { Config } from "../config.js";
import type { Deps, DomainSettings, ScaLinks } from "../domain/deps.js";
import { SCA_SUBJECTS } from "../domain/subjects/registry.js";
import type { PayeeVerificationPort } from "../domain/vop/ports.js";
import { createPayeeVerification } from "../domain/vop/verification.js";
import type { Clock } from "../lib/clock.js";
import { DEMO_VOP_DIRECTORY, readVopDirectory, sandboxVopScheme } from "../ledger/vop-directory.js";
import { createPasswords } from "./passwords.js";
import { createSmsTexts } from "../sca/sms-texts.js";
import type { Store } from "../store/db.js";
import { openCoreBanking } from "./core-banking.js";

/** The other banks' side of Verification of Payee: the sandbox scheme, from its directory. */
export async function vopScheme(config: Config): Promise<PayeeVerificationPort> {
  const file = config.vopDirectoryFile;
  if (file) return sandboxVopScheme(await readVopDirectory(file));
  return sandboxVopScheme(config.mode === "sandbox" ? DEMO_VOP_DIRECTORY
    : { holders: {}, notPossible: [], noAnswer: [] });
}

function domainSettings(config: Config): DomainSettings {
  return {
    timeZone: config.timeZone, bankName: config.bankName,
    smsCodeTtlSeconds: config.smsCodeTtlSeconds,
    scaSessionIdleSeconds: config.scaSessionIdleSeconds,
    loginFailuresMax: config.loginFailuresMax,
    loginBlockSeconds: config.loginBlockSeconds,
    tppConcurrentPasswordChecks: config.tppConcurrentPasswordChecks,
    consentValidityDaysMax: config.consentValidityDaysMax,
    frequencyPerDayMax: config.frequencyPerDayMax,
    consentAuthorisationMinutes: config.consentAuthorisationMinutes,
    paymentScaTimeoutSeconds: config.paymentScaTimeoutSeconds,
    bulkPaymentEntriesMax: config.bulkPaymentEntriesMax,
    clearingSettlementSeconds: config.clearingSettlementSeconds,
    decoupledTimeoutSeconds: config.decoupledTimeoutSeconds,
    sandbox: config.mode === "sandbox",
    authorisationConfirmation: config.authorisationConfirmation,
    exemptions: {
      trustedPayees: config.trustedPayeeExemption, lowValue: config.lowValueExemption,
      transactionRisk: config.traExemption,
    },
  };
}

export function appDeps(
  config: Config, store: Store, clock: Clock, scaLinks: ScaLinks, scheme: PayeeVerificationPort,
): Deps {
  const core = openCoreBanking(config, store, clock);
  return {
    store, clock, scaLinks, passwords: createPasswords(), core,
    smsTexts: createSmsTexts(config.bankName), subjects: SCA_SUBJECTS,
    vop: createPayeeVerification(core, scheme,
      { bankCode: config.bankCode, timeoutMs: config.vopTimeoutMs }),
    settings: domainSettings(config),
  };
}
