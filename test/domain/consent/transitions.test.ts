/**
 * The consent lifecycle against a reference model written here, independently of the table in
 * src/domain/consent/transitions.ts: every event from every status on a real store, random event
 * sequences (fast-check), and the lapse rules read on use and applied by the sweep agreeing.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  CONSENT_EVENTS, CONSENT_TRANSITIONS, lapseConsents, lapseOf, lapseRules, moveConsent,
  replaceRecurring, type ConsentEvent,
} from "../../../src/domain/consent/transitions.js";
import type { Consent, ConsentStatus } from "../../../src/domain/consent/model.js";
import {
  AT, followsModel, storeWithTpp, TPP, walkEveryEvent, type Machine,
} from "../../support/lifecycle.js";

const STATUSES: readonly ConsentStatus[] = [
  "received", "partiallyAuthorised", "rejected", "valid", "revokedByPsu", "expired",
  "terminatedByTpp",
];

/** Not authorised yet: by nobody, or by some of the users who must sign (multi-level SCA). */
const AWAITING = {
  authorise: "valid", signPartly: "partiallyAuthorised", reject: "rejected",
  expireUnauthorised: "rejected", terminate: "terminatedByTpp",
} as const;

/** What may happen to a consent; what is not listed is refused. */
const MODEL: Partial<Record<ConsentStatus, Partial<Record<ConsentEvent, ConsentStatus>>>> = {
  received: AWAITING,
  partiallyAuthorised: AWAITING,
  valid: {
    expire: "expired", revoke: "revokedByPsu", terminate: "terminatedByTpp",
    replace: "terminatedByTpp",
  },
};

const modelAfter = (status: ConsentStatus, event: ConsentEvent) => MODEL[status]?.[event];

const storeOf = storeWithTpp();
let serial = 0;

async function inserted(status: ConsentStatus, over: Partial<Consent> = {}): Promise<Consent> {
  serial += 1;
  const consent: Consent = {
    id: `c-${serial}`, tppId: TPP, status, psuId: null,
    access: {
      accounts: [], balances: [], transactions: [], availableAccounts: null,
      availableAccountsWithBalance: null, allPsd2: "allAccounts",
    },
    recurringIndicator: true, validUntil: "2026-12-31", frequencyPerDay: 4,
    combinedServiceIndicator: false, redirectUri: "https://tpp.example/ok", nokRedirectUri: null,
    createdAt: AT, updatedAt: AT, authorisedAt: null, ...over,
  };
  await storeOf().consents.insert(storeOf().db, consent);
  return consent;
}

const statusOf = async (id: string) => (await storeOf().consents.find(storeOf().db, id))?.status;

const apply = (id: string, event: ConsentEvent) => storeOf().transaction(
  (tx) => moveConsent({ store: storeOf() }, tx, id, event, { at: AT }));

const machine: Machine<ConsentStatus, ConsentEvent> = {
  statuses: STATUSES, events: CONSENT_EVENTS, model: modelAfter,
  insert: async (status) => (await inserted(status)).id, apply, statusOf,
};

test("every event from every status: allowed moves to the model's status, else nothing", () =>
  walkEveryEvent(machine));

test("random event sequences follow the model; an ended consent never comes back", () =>
  followsModel(machine, ["rejected", "revokedByPsu", "expired", "terminatedByTpp"], 150));

test("a new recurring consent replaces only the PSU's other valid recurring ones", async () => {
  await storeOf().db.insertInto("psus").values(psuRow("psu-r")).execute();
  const keep = await inserted("valid", { psuId: "psu-r" });
  const older = await inserted("valid", { psuId: "psu-r" });
  const oneOff = await inserted("valid", { psuId: "psu-r", recurringIndicator: false });
  const waiting = await inserted("received", { psuId: "psu-r" });
  const store = storeOf();
  await store.transaction((tx) => replaceRecurring({ store }, tx, keep, "psu-r", AT));
  assert.deepEqual(
    [await statusOf(keep.id), await statusOf(older.id), await statusOf(oneOff.id),
      await statusOf(waiting.id)],
    ["valid", CONSENT_TRANSITIONS.replace.to, "valid", "received"]);
});

function psuRow(id: string) {
  return {
    id, login: id, name: id, password_hash: "x", status: "enabled", failed_attempts: 0,
    blocked_until: null, created_at: AT,
  };
}

const DAYS = ["2026-04-29", "2026-04-30", "2026-05-01", "2026-05-02"];
const TIMES = ["2026-05-01T09:00:00.000Z", "2026-05-01T09:30:00.000Z", "2026-05-01T10:00:00.000Z"];

test("the lapse rules read on use and applied by the sweep agree, consent by consent", async () => {
  const consentShape = fc.record({
    status: fc.constantFrom(...STATUSES), validUntil: fc.constantFrom(...DAYS),
    createdAt: fc.constantFrom(...TIMES),
  });
  await fc.assert(fc.asyncProperty(fc.array(consentShape, { minLength: 1, maxLength: 6 }),
    fc.constantFrom(...DAYS), fc.constantFrom(...TIMES), async (shapes, today, cutoff) => {
      const rules = lapseRules(today, cutoff);
      const consents = await Promise.all(shapes.map((shape) => inserted(shape.status, shape)));
      const store = storeOf();
      await store.transaction((tx) => lapseConsents({ store }, tx, rules, AT));
      for (const consent of consents) {
        const lapse = lapseOf(consent, rules);
        const expected = lapse ? CONSENT_TRANSITIONS[lapse.event].to : consent.status;
        assert.equal(await statusOf(consent.id), expected);
      }
    }), { numRuns: 100 });
});
