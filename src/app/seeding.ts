/**
 * The demo bank, the one place it is seeded (on start with SEED_DEMO_DATA, and by
 * `psd2-bank seed`), the scale-test data sets, and the guide to the demo PSUs for the start
 * banner: app/ is the only importer of ledger/.
 */
import type { Config } from "../config.js";
import { demoPsuLogins, demoPsusRefusal } from "../domain/administration/psus.js";
import { systemClock, type Clock } from "../lib/clock.js";
import { generateDataSet, type DataSet, type DataSetRequest } from "../ledger/data-set.js";
import { ALL_DEMO_PSUS, seedDemoData } from "../ledger/demo-data.js";
import type { Store } from "../store/db.js";
import { hashPassword } from "./passwords.js";
import { openBankStore } from "./store.js";

export { demoCodeLines, demoPsuLines } from "../ledger/demo-guide.js";

/** Every demo PSU's login: the published passwords and secrets the bank refuses in production. */
export const DEMO_LOGINS = ALL_DEMO_PSUS.map((p) => p.login);

/** Their published passwords and TOTP secrets would let anyone authorise payments. */
async function refuseDemoPsus(store: Store): Promise<void> {
  const logins = await demoPsuLogins(store, DEMO_LOGINS);
  if (logins.length === 0) return;
  await store.close();
  throw demoPsusRefusal(logins);
}

function seedDemoBank(store: Store, config: Config, clock: Clock): Promise<boolean> {
  const { timeZone, bankBic: bic } = config;
  return seedDemoData({ store, clock, timeZone, bic, hashPassword });
}

/**
 * The store as `start` opens it: refused in production while it holds demo PSUs, seeded where
 * the settings say.
 */
export async function openStartingStore(config: Config, clock: Clock): Promise<Store> {
  const store = await openBankStore({ ...config, backgroundCheckpoints: true });
  if (config.mode === "production") await refuseDemoPsus(store);
  if (config.seedDemoData) await seedDemoBank(store, config, clock);
  return store;
}

/** Seeds the demo bank into an empty database; false when it has PSUs already. */
export async function seedDatabase(config: Config): Promise<boolean> {
  const store = await openBankStore(config);
  try {
    return await seedDemoBank(store, config, systemClock);
  } finally {
    await store.close();
  }
}

export type DataSetSize = Pick<DataSetRequest, "psus" | "transactions" | "seed" | "progress">;

/** A scale-test data set whose PSUs share the published password `password`. */
export async function generateData(
  config: Config, size: DataSetSize, password: string,
): Promise<DataSet> {
  const store = await openBankStore(config);
  try {
    return await generateDataSet({
      ...size, store, clock: systemClock, timeZone: config.timeZone, bankCode: config.bankCode,
      bic: config.bankBic, passwordHash: await hashPassword(password),
    });
  } finally {
    await store.close();
  }
}
