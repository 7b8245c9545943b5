/**
 * The core banking system the use cases work with: the embedded ledger. A bank's own core
 * replaces createEmbeddedLedger here and nowhere else.
 */
import type { Config } from "../config.js";
import type { Clock } from "../lib/clock.js";
import { createEmbeddedLedger, type LedgerLimits } from "../ledger/core.js";
import type { Store } from "../store/db.js";

function ledgerLimits(config: Config): LedgerLimits {
  return {
    overdraftMinor: BigInt(config.overdraftLimitCents),
    dailyPaymentLimitMinor:
      config.dailyPaymentLimitCents > 0 ? BigInt(config.dailyPaymentLimitCents) : null,
  };
}

/** The core on the store, with the configured limits; its administration too (the operator's). */
export function openCoreBanking(config: Config, store: Store, clock: Clock) {
  return createEmbeddedLedger({
    ledger: store.ledger, clock, timeZone: config.timeZone, bankCode: config.bankCode,
    bic: config.bankBic, limits: ledgerLimits(config), cached: store.cached,
    // Outside a transaction: on SQLite a transaction holds Kysely's one connection meanwhile.
    committed: (tx) => tx === store.db,
  });
}
