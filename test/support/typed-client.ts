/**
 * The typed client of client/ as the API tests use it: the demo TPP's certificate, the types
 * generated from the bank's own document for its profile (client/types/), and the same checks of
 * every exchange as the bank's TppClient (test/support/start-app.ts).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createClient } from "../../client/index.js";
import type { paths as BerlinGroupPaths } from "../../client/types/berlin-group.js";
import type { paths as SpecPaths } from "../../client/types/spec.js";
import type { TestBank } from "./start-app.js";

type Profile = TestBank["tpp"]["profile"];

function clientOf<Paths>(bank: TestBank, profile: Profile, headers: Record<string, string>) {
  assert.equal(bank.tpp.profile, profile, `the ${profile} types need a bank in that profile`);
  return createClient<Paths>({
    baseUrl: bank.apiUrl,
    tls: {
      cert: readFileSync(bank.certs.tppCert), key: readFileSync(bank.certs.tppKey), ca: bank.ca,
    },
    headers,
    observe: bank.tpp.check,
  });
}

export const specClient = (bank: TestBank, headers: Record<string, string> = {}) =>
  clientOf<SpecPaths>(bank, "spec", headers);

export const berlinGroupClient = (bank: TestBank, headers: Record<string, string> = {}) =>
  clientOf<BerlinGroupPaths>(bank, "berlin-group", headers);

/** The body of an answer with `status`, typed as that status's; fails with the answer otherwise. */
export function bodyOf<A extends { status: number; body: unknown }, S extends A["status"]>(
  answer: A, status: S,
): Extract<A, { status: S }>["body"] {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer.body as Extract<A, { status: S }>["body"];
}
