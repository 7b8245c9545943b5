/**
 * One ordered list of migrations for SQLite and PostgreSQL alike, written with Kysely's schema
 * builder and portable column types only. Kysely applies them in name order; a migration, once
 * released, is never edited: changes come as a new file.
 */
import type { Migration, MigrationProvider } from "kysely";
import { initial } from "./0001-initial.js";
import { accountInformation } from "./0002-account-information.js";
import { jobLeases } from "./0005-job-leases.js";
import { auditLog } from "./0007-audit-log.js";

const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-account-information": accountInformation,
  "0005-job-leases": jobLeases,
  "0007-audit-log": auditLog,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
