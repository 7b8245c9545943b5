/**
 * The Docker image's sandbox, `docker run -e PSD2_MODE=sandbox ... demo-tpp`, without Docker: the
 * CLI under the environment the Dockerfile's runtime stage sets, with PSD2_MODE=sandbox and the
 * volume a fresh directory. Reached through another of this machine's interfaces than loopback,
 * as a container's published ports are, the bank's listeners and the demo TPP answer, and the
 * development certificates are in the volume.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { get } from "node:https";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { freePort, listenerPorts, startCli } from "../support/cli.js";

const DOCKERFILE = new URL("../../../Dockerfile", import.meta.url);

/** The ENV of the Dockerfile's last stage (the runtime image). */
function imageEnv(): Record<string, string> {
  const stages = readFileSync(DOCKERFILE, "utf8").split(/^FROM /m);
  const env: Record<string, string> = {};
  for (const line of stages.at(-1)!.split("\n").filter((l) => l.startsWith("ENV "))) {
    for (const [, name, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[name!] = value!;
  }
  return env;
}

/** An address of this machine that is not loopback, as a container's published port is. */
const outside = Object.values(networkInterfaces()).flat()
  .find((a) => a && !a.internal && a.family === "IPv4")?.address;

/** GET over TLS to `address`, checking the certificate as issued for localhost by `ca`. */
function tlsGet(address: string, port: string, path: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: address, port, path, ca, servername: "localhost", checkServerIdentity: () => undefined },
      (answer) => { answer.resume(); resolve(answer.statusCode ?? 0); }).on("error", reject);
  });
}

let volume: string;
before(async () => { volume = await mkdtemp(join(tmpdir(), "psd2-bank-volume-")); });
after(async () => { await rm(volume, { recursive: true, force: true }); });

test("the image's environment binds all interfaces; PSD2_MODE=sandbox runs the demo with its certificates "
  + "in the volume", { timeout: 120_000, skip: outside ? false : "no interface besides loopback" }, async () => {
  const env = imageEnv();
  assert.equal(env.HOST, "0.0.0.0");
  assert.equal(env.PSD2_MODE, "production", "production unless asked");
  const ports = await listenerPorts();
  const demoPort = await freePort();
  const demo = await startCli(["demo-tpp", "--port", String(demoPort)],
    { ...env, PSD2_MODE: "sandbox", DATA_DIR: volume, ...ports }, "Demo TPP at");
  try {
    assert.match(demo.output(), new RegExp(`Certificates in ${volume}/certs: ca.crt, tpp.crt, tpp.key`));
    const ca = await readFile(join(volume, "certs", "ca.crt"));
    await Promise.all(["tpp.crt", "tpp.key"].map((f) => readFile(join(volume, "certs", f))));
    assert.equal(await tlsGet(outside!, ports.API_PORT, "/health", ca), 200);
    assert.equal(await tlsGet(outside!, ports.AUTH_PORT, "/health", ca), 200);
    const shop = await fetch(`http://${outside}:${demoPort}/shop`);
    assert.equal(shop.status, 200, "the demo TPP answers from outside too");
  } finally {
    assert.equal(await demo.stop(), 0);
  }
});
