/**
 * What the operator's commands work with: the administration use cases over the store, without
 * listeners, pages or the TPP API, so that a command loads only what it needs.
 */
import type { Config } from "../config.js";
import {
  createAccountAdministration, type AccountAdministration,
} from "../domain/administration/accounts.js";
import { createPsuAdministration, type PsuAdministration } from "../domain/administration/psus.js";
import {
  createResourceQueries, type ResourceQueries,
} from "../domain/administration/resources.js";
import { createAuditLog, type AuditLog } from "../domain/kernel/audit.js";
import { createFraudSharing, type FraudSharing } from "../domain/fraud/sharing.js";
import { createTppRegistry, type TppRegistry } from "../domain/kernel/tpps.js";
import {
  createNotificationAdministration, type NotificationAdministration,
} from "../domain/notification/administration.js";
import {
  createStatisticsReport, type StatisticsReport,
} from "../domain/statistics/report.js";
import { systemClock } from "../lib/clock.js";
import { hashPassword } from "./passwords.js";
import { openCoreBanking } from "./core-banking.js";
import { DEMO_LOGINS } from "./seeding.js";
import { openBankStore } from "./store.js";

/** The use cases operator commands work with, opened by openAdministration. */
export interface Administration {
  psus: PsuAdministration;
  accounts: AccountAdministration;
  tpps: TppRegistry;
  audit: AuditLog;
  resources: ResourceQueries;
  notifications: NotificationAdministration;
  /** The flagged payee identifiers shared with other PSPs (PSR art. 83, proposal). */
  fraud: FraudSharing;
  /** The published statistics of the dedicated interface. */
  statistics: StatisticsReport;
}

export async function openAdministration(
  config: Config,
): Promise<Administration & { close(): Promise<void> }> {
  const store = await openBankStore(config);
  const core = openCoreBanking(config, store, systemClock);
  return {
    psus: createPsuAdministration({
      store, clock: systemClock, hashPassword, bankName: config.bankName,
      demoLogins: DEMO_LOGINS,
    }),
    accounts: createAccountAdministration({ store, core }),
    tpps: createTppRegistry({ store, clock: systemClock }),
    audit: createAuditLog({ store, clock: systemClock, retentionDays: config.auditRetentionDays }),
    resources: createResourceQueries({ store, core }),
    notifications: createNotificationAdministration({ store, clock: systemClock }),
    fraud: createFraudSharing({ store, clock: systemClock }, config.bankName),
    statistics: createStatisticsReport({ store, clock: systemClock }),
    close: () => store.close(),
  };
}
