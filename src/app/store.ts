/**
 * The bank's database as every command opens it (start, migrate, seed and the operator's
 * commands): a DATA_DIR or database file that cannot be used is named in one line.
 */
import { ConfigError, type Config } from "../config.js";
import { dataDirProblem } from "../lib/data-dir.js";
import { openStore, sqliteFile, type Store, type StoreOptions } from "../store/db.js";

/** Refuses a DATA_DIR the bank cannot create and write, before anything is created in it. */
export function checkDataDir(config: Config): void {
  const problem = dataDirProblem(config.dataDir);
  if (problem) {
    throw new ConfigError(`DATA_DIR ${config.dataDir} ${problem}; `
      + "set DATA_DIR to a directory psd2-bank may create and write");
  }
}

/** The store, with a DATA_DIR or database file that cannot be used named in one line. */
export async function openBankStore(options: Config & Partial<StoreOptions>): Promise<Store> {
  if (!options.databaseUrl) checkDataDir(options);
  return openStore(options).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    if (code !== "SQLITE_NOTADB") throw error;
    throw new ConfigError(`${sqliteFile(options.dataDir)} is not a SQLite database: `
      + "move it away (a new one is created) or set DATA_DIR to another directory");
  });
}

/** Applies pending migrations, naming each as it is applied; returns the engine's name. */
export async function migrateDatabase(
  config: Config, applied: (name: string) => void,
): Promise<string> {
  const store = await openBankStore({ ...config, onMigration: applied });
  await store.close();
  return store.engine;
}
