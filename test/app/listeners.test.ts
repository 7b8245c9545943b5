/** Tests for src/app/listeners.ts: how the store hears of arriving requests. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { FastifyInstance } from "fastify";
import { announceArrivals } from "../../src/app/listeners.js";

const listener = () => ({ server: new EventEmitter() }) as unknown as FastifyInstance;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test("the requests read in one poll, on any listener, are announced to the store once", async () => {
  let announced = 0;
  const [api, auth] = [listener(), listener()];
  announceArrivals({ arrived: () => (announced += 1) }, [api, auth]);
  api.server.emit("request");
  api.server.emit("request");
  auth.server.emit("request");
  assert.equal(announced, 1);
  await nextTurn();
  api.server.emit("request");
  assert.equal(announced, 2, "a request of the next poll is announced again");
});
