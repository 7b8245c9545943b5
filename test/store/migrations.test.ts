import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { migrationProvider } from "../../src/store/migrations/index.js";

test("a partly executed bulk stored as PATC before 0090 reads PART after it", async () => {
  const dir = await mkdtemp(join(tmpdir(), "psd2-bank-migration-"));
  const file = new Database(join(dir, "bank.sqlite"));
  file.pragma("foreign_keys = off");
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: file }) });
  try {
    const migrator = new Migrator({ db, provider: migrationProvider });
    assert.equal((await migrator.migrateTo("0030-sca-login-failures")).error, undefined);
    await sql`insert into payments (id, tpp_id, service, product, status, debtor_iban,
      creditor_iban, creditor_name, amount, currency, redirect_uri, created_at, updated_at)
      values ('p1', 't1', 'bulk-payments', 'sepa-credit-transfers', 'PATC', 'DE1', 'DE2', 'N',
      100, 'EUR', 'https://tpp.example', '2026-01-01', '2026-01-01')`.execute(db);
    assert.equal((await migrator.migrateTo("0090-bulk-part")).error, undefined);
    const { rows } = await sql<{ status: string }>`select status from payments`.execute(db);
    assert.deepEqual(rows, [{ status: "PART" }]);
  } finally {
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  }
});
