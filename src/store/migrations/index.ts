/**
 * One ordered list of migrations for SQLite and PostgreSQL alike, written with Kysely's schema
 * builder and portable column types only. Kysely applies them in name order; a migration, once
 * released, is never edited: changes come as a new file.
 */
import type { Migration, MigrationProvider } from "kysely";
import { initial } from "./0001-initial.js";
import { jobLeases } from "./0005-job-leases.js";

const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0005-job-leases": jobLeases,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
