/**
 * Corporate customers (PSU-Corporate-ID): a company holds accounts (ledger_accounts.corporate_id
 * instead of psu_id), its users act on them under
 * a mandate (may sign, or may only see), and an account may need several users' signatures. A
 * payment or consent keeps how many it needs, fixed when it is created, and how many it has.
 */
import type { Kysely, Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("corporates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("corporate_id", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createTable("corporate_users")
    .addColumn("corporate_id", "text", (c) => c.notNull().references("corporates.id"))
    .addColumn("psu_id", "text", (c) => c.notNull().references("psus.id"))
    .addColumn("may_sign", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("corporate_users_pk", ["corporate_id", "psu_id"])
    .execute();
  await db.schema.createIndex("corporate_users_psu").on("corporate_users").column("psu_id")
    .execute();
  await db.schema.alterTable("ledger_accounts")
    .addColumn("corporate_id", "text", (c) => c.references("corporates.id")).execute();
  await db.schema.alterTable("ledger_accounts")
    .addColumn("signatures_required", "integer", (c) => c.notNull().defaultTo(1)).execute();
  for (const table of ["payments", "consents"]) {
    await db.schema.alterTable(table)
      .addColumn("signatures_required", "integer", (c) => c.notNull().defaultTo(1)).execute();
    await db.schema.alterTable(table)
      .addColumn("signatures", "integer", (c) => c.notNull().defaultTo(0)).execute();
  }
}

export const corporates: Migration = { up };
