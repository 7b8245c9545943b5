/** The repositories a Store carries, one per aggregate. */
import type { Engine } from "./handle.js";
import { createAuditRepository } from "./audit.js";
import { basketRepository } from "./baskets.js";
import { accessCountRepository, createDeltaMarkRepository } from "./access-counts.js";
import { confirmationRepository } from "./confirmations.js";
import { consentRepository } from "./consents.js";
import { exemptionRepository } from "./exemptions.js";
import { fraudSignalRepository } from "./fraud-signals.js";
import { vopBulkRepository } from "./vop-bulks.js";
import { leaseRepository } from "./leases.js";
import { notificationRepository } from "./notifications.js";
import { createLedgerRepository } from "./ledger.js";
import { paymentRepository } from "./payments.js";
import { permissionRepository } from "./permissions.js";
import { psuRepository } from "./psus.js";
import { psuSessionRepository } from "./psu-sessions.js";
import { psuAppRepository } from "./psu-apps.js";
import { oauthRecordRepository } from "./oauth-records.js";
import { scaRepository, scaSessionRepository, unknownLoginRepository } from "./sca.js";
import { statsRepository } from "./stats.js";
import { statementRepository } from "./statements.js";
import { interfaceStatisticsRepository } from "./interface-statistics.js";
import { idempotencyRepository, secretRepository, tppRepository } from "./tpps.js";
import { savepointRepository } from "./savepoints.js";

export function createRepositories(engine: Engine) {
  return {
    savepoints: savepointRepository,
    payments: paymentRepository,
    consents: consentRepository,
    baskets: basketRepository,
    ledger: createLedgerRepository(engine),
    psus: psuRepository,
    sca: scaRepository,
    tpps: tppRepository,
    idempotency: idempotencyRepository,
    secrets: secretRepository,
    stats: statsRepository,
    audit: createAuditRepository(engine),
    statements: statementRepository,
    accessCounts: accessCountRepository,
    leases: leaseRepository,
    notifications: notificationRepository,
    deltaMarks: createDeltaMarkRepository(engine),
    psuSessions: psuSessionRepository,
    psuApps: psuAppRepository,
    oauthRecords: oauthRecordRepository,
    scaSessions: scaSessionRepository,
    unknownLogins: unknownLoginRepository,
    exemptions: exemptionRepository,
    fraudSignals: fraudSignalRepository,
    vopBulks: vopBulkRepository,
    confirmations: confirmationRepository,
    permissions: permissionRepository,
    interfaceStatistics: interfaceStatisticsRepository,
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
