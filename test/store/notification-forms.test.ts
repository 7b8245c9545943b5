/**
 * The outbox writes each notification in its subscription's form, keyed by resource kind: a
 * signing basket subscribed on /v2 (built beside this on its own branch) is pushed PUSH 2.4's
 * body naming basketId, full or lean, checked against the PUSH file; on /v1, 1.3's form. On
 * both engines.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { NotificationContent, NotificationForm } from "../../src/domain/notification/ports.js";
import type { Store } from "../../src/store/db.js";
import { freshStore, onEachEngine } from "../support/engines.js";
import { pushViolations } from "../support/openfinance.js";

const AT = "2026-11-27T10:00:00.000Z";

onEachEngine("notification forms", (engine) => {
  let store: Store;
  let close: () => Promise<void>;
  before(async () => { ({ store, close } = await freshStore(engine)); });
  after(() => close());

  async function basketPushed(id: string, form: NotificationForm, content: NotificationContent[]) {
    const resourcePath = `/psd2/${form === "2.4" ? "v2" : "v1"}/signing-baskets/${id}`;
    await store.transaction(async (tx) => {
      await store.notifications.subscribe(tx, { resourceId: id, resourceType: "signing-basket",
        tppId: "PSDDE-BAFIN-123456", uri: "https://localhost/n", content, form, resourcePath }, AT);
      await store.notifications.queue(tx, [{ resourceId: id, transactionStatus: "ACTC" }], AT);
    });
    const [row] = await store.notifications.list(store.db, { tppId: "PSDDE-BAFIN-123456", limit: 1 });
    const body = JSON.parse(row!.body);
    if (form === "2.4") {
      assert.deepEqual(pushViolations({ headers: { "x-request-id": row!.id }, body }), []);
    }
    return { id: row!.id, body, resourcePath };
  }

  test("a /v2 basket: basketId with its transactionStatus; lean, the link to its status", async () => {
    assert.deepEqual((await basketPushed("b1", "2.4", ["SCA", "PROCESS"])).body,
      { basketId: "b1", transactionStatus: "ACTC" });
    const lean = await basketPushed("b2", "2.4", ["LAST"]);
    assert.deepEqual(lean.body,
      { basketId: "b2", _links: { status: { href: `${lean.resourcePath}/status` } } });
  });

  test("a /v1 basket keeps 1.3's form", async () => {
    const { id, body } = await basketPushed("b3", "1.3", ["PROCESS"]);
    assert.deepEqual(body, { notificationId: id, resourceType: "signing-basket", resourceId: "b3",
      transactionStatus: "ACTC", time: AT });
  });
});
