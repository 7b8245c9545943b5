/** The test support's ports: a bank started by a test must find its ports still free. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ephemeralPortsFrom, freePort } from "./cli.js";

test("a free port is one the kernel never gives an outgoing connection, and is handed out once", async () => {
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) assert.ok(port >= 1_024 && port < ephemeralPortsFrom(), String(port));
  assert.equal(new Set(ports).size, ports.length, "none handed out twice before a bank binds it");
});
