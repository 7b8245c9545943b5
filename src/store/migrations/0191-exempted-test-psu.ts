/**
 * The sandbox's test PSU tester0 becomes the one whose SCA is always exempted (it had no device,
 * a branch the scenario PSU finn covers): a sandbox database seeded before gets the behaviour and
 * the SMS device the seed now gives it. Nothing changes where tester0 is not a seeded test PSU.
 */
import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Migration } from "kysely";

async function up(db: Kysely<unknown>): Promise<void> {
  const found = await sql<{ id: string }>`select id from psus
    where login = 'tester0' and sandbox_behaviour = 'fixed_code'`.execute(db);
  for (const { id } of found.rows) {
    await sql`update psus set sandbox_behaviour = 'exempted', name = 'Theo Ausnahme'
      where id = ${id}`.execute(db);
    await sql`insert into sca_devices (id, psu_id, kind, label, secret, phone, last_totp_step)
      select ${randomUUID()}, ${id}, 'sms', 'SMS to +49151…10', null, '+4915100000010', null
      where not exists (select 1 from sca_devices where psu_id = ${id})`.execute(db);
  }
}

export const exemptedTestPsu: Migration = { up };
