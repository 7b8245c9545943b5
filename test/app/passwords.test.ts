/** Tests for src/app/passwords.ts: argon2id parameters, earlier hashes, bounded concurrency. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { hash } from "@node-rs/argon2";
import { createPasswords, hashPassword } from "../../src/app/passwords.js";

test("new hashes are argon2id with m = 7 MiB, t = 5, p = 1 (OWASP's set with the least memory)", async () => {
  assert.match(await hashPassword("correct horse"), /^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
});

test("a hash made with the earlier OWASP set (m = 19 MiB, t = 2) verifies its password only", async () => {
  const other = await hash("battery staple",
    { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const passwords = createPasswords();
  assert.equal(await passwords.verify(other, "battery staple"), true);
  assert.equal(await passwords.verify(other, "battery stapler"), false);
});

test("many verifications at once all answer rightly, beyond the bound on hashes", async () => {
  const stored = await hashPassword("tr0ub4dor");
  const passwords = createPasswords();
  const attempts = ["tr0ub4dor", "wrong", "tr0ub4dor", "", "tr0ub4dor", "x"];
  const answers = await Promise.all([...attempts.map((p) => passwords.verify(stored, p)),
    passwords.verify(null, "tr0ub4dor")]);
  assert.deepEqual(answers, [true, false, true, false, true, false, false]);
});
