/**
 * Failed logins of names that are no PSU's, counted as a PSU's are (so the lockout does not
 * tell which logins exist), and the count of codes sent to a login session.
 */
import { sql, type Kysely, type Migration } from "kysely";

type AnyDb = Kysely<unknown>;

async function up(db: AnyDb): Promise<void> {
  await db.schema.createTable("unknown_login_failures")
    .addColumn("login_key", "text", (c) => c.primaryKey())
    .addColumn("failed_attempts", "integer", (c) => c.notNull())
    .addColumn("blocked_until", "text")
    .execute();
  await db.schema.alterTable("otp_challenges")
    .addColumn("sends", "integer", (c) => c.notNull().defaultTo(sql`1`)).execute();
}

export const scaLoginFailures: Migration = { up };
