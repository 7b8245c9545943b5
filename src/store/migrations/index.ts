/**
 * One ordered list of migrations for SQLite and PostgreSQL alike, written with Kysely's schema
 * builder and portable column types only. Kysely applies them in name order; a migration, once
 * released, is never edited: changes come as a new file.
 */
import type { Migration, MigrationProvider } from "kysely";
import { initial } from "./0001-initial.js";
import { standingOrders } from "./0020-standing-orders.js";
import { bulkPayments } from "./0021-bulk-payments.js";
import { fundsConfirmationConsents } from "./0022-funds-confirmation-consents.js";
import { accountInformation } from "./0002-account-information.js";
import { jobLeases } from "./0005-job-leases.js";
import { auditLog } from "./0007-audit-log.js";
import { tppRequestCounts } from "./0008-tpp-request-counts.js";
import { psuDashboard } from "./0009-psu-dashboard.js";
import { cardAccounts } from "./0010-card-accounts.js";
import { scaLoginFailures } from "./0030-sca-login-failures.js";
import { notifications } from "./0070-notifications.js";
import { notificationForms } from "./0290-notification-forms.js";
import { bulkPart } from "./0090-bulk-part.js";
import { payeeVerification } from "./0101-payee-verification.js";
import { namedPsu } from "./0102-named-psu.js";
import { scaApproach } from "./0103-sca-approach.js";
import { psuApps } from "./0104-psu-apps.js";
import { sandboxPsus } from "./0105-sandbox-psus.js";
import { initiationMessage } from "./0141-initiation-message.js";
import { oauthRecords } from "./0150-oauth-records.js";
import { scaSessionReturn } from "./0151-sca-session-return.js";
import { scaExemptions } from "./0160-sca-exemptions.js";
import { corporates } from "./0180-corporates.js";
import { basketSignatures } from "./0181-basket-signatures.js";
import { signingBaskets } from "./0170-signing-baskets.js";
import { authorisationConfirmations } from "./0190-authorisation-confirmations.js";
import { exemptedTestPsu } from "./0191-exempted-test-psu.js";
import { retentionIndexes } from "./0200-retention-indexes.js";
import { consentInterface } from "./0220-consent-interface.js";
import { paymentInterface } from "./0230-payment-interface.js";
import { permissionHistory } from "./0270-permission-history.js";
import { fraudSignals } from "./0280-fraud-signals.js";
import { interfaceStatistics } from "./0260-interface-statistics.js";
import { vopBulks } from "./0300-vop-bulks.js";
import { basketInterface } from "./0310-basket-interface.js";
import { narrowCreationIndexes } from "./0320-narrow-creation-indexes.js";
import { paymentsWithoutTppKey } from "./0330-payments-without-tpp-key.js";
import { statementEntries } from "./0340-statement-entries.js";
import { partialDueAndDecoupledIndexes } from "./0350-partial-due-and-decoupled-indexes.js";
import { auditKeyByTime } from "./0360-audit-key-by-time.js";

const migrations: Record<string, Migration> = {
  "0020-standing-orders": standingOrders,
  "0021-bulk-payments": bulkPayments,
  "0022-funds-confirmation-consents": fundsConfirmationConsents,
  "0001-initial": initial,
  "0002-account-information": accountInformation,
  "0005-job-leases": jobLeases,
  "0007-audit-log": auditLog,
  "0008-tpp-request-counts": tppRequestCounts,
  "0009-psu-dashboard": psuDashboard,
  "0010-card-accounts": cardAccounts,
  "0030-sca-login-failures": scaLoginFailures,
  "0070-notifications": notifications,
  "0090-bulk-part": bulkPart,
  "0101-payee-verification": payeeVerification,
  "0102-named-psu": namedPsu,
  "0103-sca-approach": scaApproach,
  "0104-psu-apps": psuApps,
  "0105-sandbox-psus": sandboxPsus,
  "0141-initiation-message": initiationMessage,
  "0150-oauth-records": oauthRecords,
  "0151-sca-session-return": scaSessionReturn,
  "0160-sca-exemptions": scaExemptions,
  "0180-corporates": corporates,
  "0181-basket-signatures": basketSignatures,
  "0170-signing-baskets": signingBaskets,
  "0190-authorisation-confirmations": authorisationConfirmations,
  "0191-exempted-test-psu": exemptedTestPsu,
  "0200-retention-indexes": retentionIndexes,
  "0220-consent-interface": consentInterface,
  "0230-payment-interface": paymentInterface,
  "0270-permission-history": permissionHistory,
  "0280-fraud-signals": fraudSignals,
  "0260-interface-statistics": interfaceStatistics,
  "0290-notification-forms": notificationForms,
  "0300-vop-bulks": vopBulks,
  "0310-basket-interface": basketInterface,
  "0320-narrow-creation-indexes": narrowCreationIndexes,
  "0330-payments-without-tpp-key": paymentsWithoutTppKey,
  "0340-statement-entries": statementEntries,
  "0350-partial-due-and-decoupled-indexes": partialDueAndDecoupledIndexes,
  "0360-audit-key-by-time": auditKeyByTime,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
