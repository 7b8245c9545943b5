import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { CompiledQuery, Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { migrationProvider } from "../../src/store/migrations/index.js";
import { paymentRepository } from "../../src/store/payments.js";
import { scaRepository } from "../../src/store/sca.js";
import type { Database as Schema } from "../../src/store/schema.js";

/** A migrator on a new SQLite file, for `body`; the file goes away after it. */
async function onNewFile(
  body: (db: Kysely<unknown>, migrator: Migrator, file: Database.Database) => Promise<void>,
) {
  const dir = await mkdtemp(join(tmpdir(), "psd2-bank-migration-"));
  const file = new Database(join(dir, "bank.sqlite"));
  file.pragma("foreign_keys = off");
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: file }) });
  try {
    await body(db, new Migrator({ db, provider: migrationProvider }), file);
  } finally {
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

test("a partly executed bulk stored as PATC before 0090 reads PART after it", async () => {
  await onNewFile(async (db, migrator) => {
    assert.equal((await migrator.migrateTo("0030-sca-login-failures")).error, undefined);
    await sql`insert into payments (id, tpp_id, service, product, status, debtor_iban,
      creditor_iban, creditor_name, amount, currency, redirect_uri, created_at, updated_at)
      values ('p1', 't1', 'bulk-payments', 'sepa-credit-transfers', 'PATC', 'DE1', 'DE2', 'N',
      100, 'EUR', 'https://tpp.example', '2026-01-01', '2026-01-01')`.execute(db);
    assert.equal((await migrator.migrateTo("0090-bulk-part")).error, undefined);
    const { rows } = await sql<{ status: string }>`select status from payments`.execute(db);
    assert.deepEqual(rows, [{ status: "PART" }]);
  });
});

test("a sandbox seeded before 0191: tester0 becomes the exempted test PSU with a device",
  async () => {
    await onNewFile(async (db, migrator) => {
      assert.equal((await migrator.migrateTo("0190-authorisation-confirmations")).error,
        undefined);
      await sql`insert into psus (id, login, name, password_hash, status, failed_attempts,
        blocked_until, created_at, sandbox_behaviour) values
        ('t0', 'tester0', 'Theo Ohnegeraet', 'h', 'enabled', 0, null, '2026-01-01', 'fixed_code'),
        ('t1', 'tester1', 'Tara Eingeraet', 'h', 'enabled', 0, null, '2026-01-01', 'fixed_code')`
        .execute(db);
      assert.equal((await migrator.migrateToLatest()).error, undefined);
      const psus = await sql<{ login: string; sandbox_behaviour: string }>`select login,
        sandbox_behaviour from psus order by login`.execute(db);
      assert.deepEqual(psus.rows, [{ login: "tester0", sandbox_behaviour: "exempted" },
        { login: "tester1", sandbox_behaviour: "fixed_code" }]);
      const devices = await sql<{ psu_id: string; phone: string }>`select psu_id, phone
        from sca_devices`.execute(db);
      assert.deepEqual(devices.rows, [{ psu_id: "t0", phone: "+4915100000010" }]);
    });
  });

test("a fraud report made before 0280 gets its PSU and payee IBAN from its payment", async () => {
  await onNewFile(async (db, migrator) => {
    assert.equal((await migrator.migrateTo("0220-consent-interface")).error, undefined);
    await sql`insert into payments (id, tpp_id, service, product, status, debtor_iban,
      creditor_iban, creditor_name, amount, currency, redirect_uri, created_at, updated_at,
      psu_id) values ('p1', 't1', 'payments', 'sepa-credit-transfers', 'ACSC', 'DE1', 'DE2',
      'N', 100, 'EUR', 'https://tpp.example', '2026-01-01', '2026-01-01', 'psu-1')`.execute(db);
    await sql`insert into fraud_reports (payment_id, reported_at) values ('p1', '2026-01-02')`
      .execute(db);
    assert.equal((await migrator.migrateTo("0280-fraud-signals")).error, undefined);
    const { rows } = await sql<{ psu_id: string; payee_iban: string }>`select psu_id, payee_iban
      from fraud_reports`.execute(db);
    assert.deepEqual(rows, [{ psu_id: "psu-1", payee_iban: "DE2" }]);
  });
});

test("after 0320 a creation's rows are in neither partial index, and the queries still use them",
  async () => {
    await onNewFile(async (db, migrator) => {
      assert.equal((await migrator.migrateToLatest()).error, undefined);
      const indexes = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
        where name in ('payments_bulk', 'authorisations_last_sca') order by name`.execute(db);
      const onlyRowsWith = (r: { sql: string }) => /where "?(\w+)"? is not null/i.exec(r.sql)?.[1];
      assert.deepEqual(indexes.rows.map((r) => [r.name, onlyRowsWith(r)]),
        [["authorisations_last_sca", "psu_id"], ["payments_bulk", "bulk_id"]]);
      const plan = async (query: string) => (await sql.raw<{ detail: string }>(
        `explain query plan ${query}`).execute(db)).rows.map((r) => r.detail).join("; ");
      assert.match(await plan("select * from payments where bulk_id = 'b' order by id"),
        /USING INDEX payments_bulk/);
      assert.match(await plan(`select max(updated_at) from authorisations where tpp_id = 't'
        and psu_id = 'p' and resource_type = 'consent' and sca_status = 'finalised'`),
      /USING COVERING INDEX authorisations_last_sca/);
    });
  });

test("after 0350 the due and decoupled indexes hold only their rows, and the store's own "
  + "queries use them", async () => {
  await onNewFile(async (db, migrator, file) => {
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const indexes = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where name in ('payments_due', 'authorisations_decoupled') order by name`.execute(db);
    assert.deepEqual(indexes.rows.map((r) => [r.name, /\bwhere (.*)$/i.exec(r.sql)?.[1]]), [
      ["authorisations_decoupled", "approach = 'decoupled'"],
      ["payments_due", `"requested_execution_date" is not null`],
    ]);
    const queries: CompiledQuery[] = [];
    const logged = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: file }),
      log: (event) => { if (event.level === "query") queries.push(event.query); },
    });
    await paymentRepository.dueForExecution(logged, "2026-01-01", 10);
    await scaRepository.lateDecoupled(logged, "2026-01-01", 10);
    await scaRepository.pendingDecoupled(logged, "alice");
    const plans = await Promise.all(queries.map(async (q) => (await db.executeQuery<{
      detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]))).rows
      .map((r) => r.detail).join("; ")));
    assert.equal(plans.length, 3);
    assert.match(plans[0]!, /USING INDEX payments_due/);
    for (const plan of plans.slice(1)) assert.match(plan, /USING INDEX authorisations_decoupled/);
  });
});

test("an entry booked before 0340 carries its transfer's listed columns after it, and a page "
  + "of entries is read without the transfers", async () => {
  await onNewFile(async (db, migrator) => {
    assert.equal((await migrator.migrateTo("0320-narrow-creation-indexes")).error, undefined);
    await sql`insert into ledger_accounts (id, kind, currency, status,
      debits_must_not_exceed_credits, created_at) values ('a', 'customer', 'EUR', 'enabled', 1,
      '2026-01-01'), ('b', 'clearing', 'EUR', 'enabled', 0, '2026-01-01')`.execute(db);
    await sql`insert into transfers (id, debit_account_id, credit_account_id, amount, currency,
      code, booked_at, booking_date, value_date, end_to_end_id, remittance, debtor_name,
      debtor_iban, creditor_name, creditor_iban, bank_transaction_code) values ('t1', 'a', 'b',
      250, 'EUR', 'payment', '2026-01-02T10:00:00.000Z', '2026-01-02', '2026-01-03', 'e2e', 'rent',
      'Alice', 'DE1', 'Landlord', 'DE2', 'PMNT-ICDT-ESCT')`.execute(db);
    await sql`insert into entries (account_id, seq, transfer_id, amount, balance_after,
      booking_date) values ('a', 1, 't1', -250, -250, '2026-01-02'),
      ('b', 1, 't1', 250, 250, '2026-01-02')`.execute(db);
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const { rows } = await sql`select * from entries order by account_id`.execute(db);
    const listed = { transfer_id: "t1", booking_date: "2026-01-02", value_date: "2026-01-03",
      booked_at: "2026-01-02T10:00:00.000Z", currency: "EUR", end_to_end_id: "e2e",
      remittance: "rent", debtor_name: "Alice", debtor_iban: "DE1", creditor_name: "Landlord",
      creditor_iban: "DE2", bank_transaction_code: "PMNT-ICDT-ESCT" };
    assert.deepEqual(rows, [
      { account_id: "a", seq: 1, amount: -250, balance_after: -250, ...listed },
      { account_id: "b", seq: 1, amount: 250, balance_after: 250, ...listed },
    ]);
    const { rows: plan } = await sql<{ detail: string }>`explain query plan select * from entries
      where account_id = 'a' and seq between 1 and 100 order by seq`.execute(db);
    assert.deepEqual(plan.map((r) => r.detail),
      ["SEARCH entries USING PRIMARY KEY (account_id=? AND seq>? AND seq<?)"]);
  });
});
