/**
 * The scaStatus lifecycle (src/domain/sca/transitions.ts) against a real store: every event from every
 * status, as a table written out here, and random event sequences on the authorisations of one
 * resource checked against a small reference model of the lifecycle.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import type { ScaStatus } from "../../src/domain/sca/model.js";
import {
  changeScaStatus, changeScaStatusOf, SCA_STATUSES, SCA_TRANSITIONS, type ScaEvent,
} from "../../src/domain/sca/transitions.js";
import type { Store } from "../../src/store/db.js";
import { freshStore } from "../support/engines.js";

const AT = "2026-05-01T10:00:00.000Z";
const EVENTS: readonly ScaEvent[] =
  ["identify", "authenticate", "selectMethod", "awaitConfirmation", "finalise", "exempt", "fail"];

/** Event -> status before -> status after; a missing entry means the event is refused there. */
const EXPECTED: Record<ScaEvent, Partial<Record<ScaStatus, ScaStatus>>> = {
  identify: { received: "psuIdentified" },
  authenticate: { received: "psuAuthenticated", psuIdentified: "psuAuthenticated" },
  selectMethod: { psuAuthenticated: "scaMethodSelected" },
  awaitConfirmation: { psuIdentified: "unconfirmed", psuAuthenticated: "unconfirmed" },
  finalise: { psuAuthenticated: "finalised", scaMethodSelected: "finalised", unconfirmed: "finalised" },
  exempt: { psuIdentified: "exempted", psuAuthenticated: "exempted", unconfirmed: "exempted" },
  fail: {
    received: "failed", psuIdentified: "failed", psuAuthenticated: "failed",
    scaMethodSelected: "failed", unconfirmed: "failed",
  },
};

/** The reference model: what one authorisation's status becomes after one event. */
function modelStep(status: ScaStatus, event: ScaEvent): ScaStatus {
  const terminal = ["finalised", "failed", "exempted"].includes(status);
  if (event === "fail") return terminal ? status : "failed";
  // The PSU confirmed on the bank's pages; the TPP's confirmation code is still to come.
  if (event === "awaitConfirmation") {
    return status === "psuIdentified" || status === "psuAuthenticated" ? "unconfirmed" : status;
  }
  // An exemption ends the authorisation once the PSU is known, before any method, or once the
  // TPP confirmed an exempted one.
  if (event === "exempt") {
    return ["psuIdentified", "psuAuthenticated", "unconfirmed"].includes(status)
      ? "exempted" : status;
  }
  if (status === "unconfirmed") return event === "finalise" ? "finalised" : status;
  // Each event moves forward to its one target, from any earlier open status it may skip.
  const order: ScaStatus[] = [
    "received", "psuIdentified", "psuAuthenticated", "scaMethodSelected", "finalised",
  ];
  const target = { identify: "psuIdentified", authenticate: "psuAuthenticated",
    selectMethod: "scaMethodSelected", finalise: "finalised" } as const;
  const earliest = { identify: "received", authenticate: "received",
    selectMethod: "psuAuthenticated", finalise: "psuAuthenticated" } as const;
  const at = order.indexOf(status);
  const moves = at >= order.indexOf(earliest[event]) && at < order.indexOf(target[event]);
  return moves ? target[event] : status;
}

let store: Store;
let close: () => Promise<void>;
before(async () => { ({ store, close } = await freshStore("sqlite")); });
after(() => close());

let serial = 0;
async function authorisationAt(status: ScaStatus, resourceId = `res-${++serial}`): Promise<string> {
  const id = `auth-${++serial}`;
  await store.sca.insertAuthorisation(store.db, {
    id, resourceType: "payment", resourceId, tppId: "PSDDE-BAFIN-000001", scaStatus: status,
    psuId: null, lang: "en",
  }, AT);
  return id;
}

const statusOf = async (id: string) => (await store.sca.findAuthorisation(store.db, id))?.scaStatus;

describe("scaStatus transitions", () => {
  for (const event of EVENTS) {
    for (const status of SCA_STATUSES) {
      const expected = EXPECTED[event][status];
      test(`${event} from ${status}: ${expected ?? "refused"}`, async () => {
        const declared = SCA_TRANSITIONS[event];
        assert.equal(declared.from.includes(status) ? declared.to : undefined, expected);
        const id = await authorisationAt(status);
        const changed = await store.transaction(
          (tx) => changeScaStatus(store, tx, id, event, AT));
        assert.equal(changed, expected !== undefined);
        assert.equal(await statusOf(id), expected ?? status);
      });
    }
  }
});

type Action = { event: ScaEvent; target: number | "all" };

test("random events on one resource's authorisations follow the reference model", async () => {
  const action: fc.Arbitrary<Action> = fc.record({
    event: fc.constantFrom(...EVENTS),
    target: fc.oneof(fc.nat({ max: 2 }), fc.constant("all" as const)),
  });
  await fc.assert(fc.asyncProperty(fc.array(action, { maxLength: 25 }), async (actions) => {
    const resourceId = `res-${++serial}`;
    const ids = [
      await authorisationAt("received", resourceId), await authorisationAt("received", resourceId),
      await authorisationAt("received", resourceId),
    ];
    const model: ScaStatus[] = ids.map(() => "received");
    for (const { event, target } of actions) {
      await store.transaction(async (tx) => {
        if (target === "all") await changeScaStatusOf(store, tx, resourceId, event, AT);
        else await changeScaStatus(store, tx, ids[target] ?? "", event, AT);
      });
      for (const [i, status] of model.entries()) {
        if (target === "all" || target === i) model[i] = modelStep(status, event);
      }
      for (const [i, id] of ids.entries()) assert.equal(await statusOf(id), model[i]);
    }
  }), { numRuns: 150 });
});
