/** `psd2-bank demo-tpp`: the demo TPP web app against this bank (started here) or a running one. */
import { readFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Config } from "../config.js";
import { startDemoTpp } from "../demo-tpp/server.js";
import { OperatorError } from "../domain/kernel/errors.js";
import { makeIban } from "../lib/iban.js";
import { parseTppCertificate } from "../tpp/certificate.js";
import { start } from "./start.js";

function portOf(raw: string | undefined): number {
  const port = Number(raw ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new OperatorError(`--port must be a TCP port, got ${raw}`);
  }
  return port;
}

/** The demo TPP's OAuth client id: its certificate's organizationIdentifier. */
function clientIdOf(pem: Buffer): string {
  const der = Buffer.from(pem.toString("utf8").replace(/-----[A-Z ]+-----|\s/g, ""), "base64");
  const parsed = parseTppCertificate(new Uint8Array(der));
  if (!parsed.ok) throw new OperatorError(`the demo TPP certificate: ${parsed.problem.reason}`);
  return parsed.identity.id;
}

/**
 * Whether this bank already answers at its configured API URL: its /health, over a server
 * certificate of the development CA in DATA_DIR (so not some other program on the port).
 */
async function alreadyRunning(config: Config): Promise<boolean> {
  const ca = await readFile(join(config.dataDir, "certs", "ca.crt")).catch(() => undefined);
  if (!ca) return false;
  return new Promise((resolve) => {
    const probe = request(new URL("/health", config.publicApiUrl), { ca, timeout: 15_000 },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200);
      });
    probe.on("timeout", () => probe.destroy());
    probe.on("error", () => resolve(false));
    probe.end();
  });
}

/** The bank the demo TPP talks to: the one named, the one running (`npm start`), or a new one. */
async function bank(config: Config, apiUrl: string | undefined, authUrl: string | undefined) {
  if (apiUrl) return { apiUrl, authUrl: authUrl ?? config.publicAuthUrl, startedHere: false };
  if (!await alreadyRunning(config)) {
    const started = await start(config);
    return { apiUrl: started.apiUrl, authUrl: authUrl ?? started.authUrl, startedHere: true };
  }
  process.stdout.write(`psd2-bank already runs at ${config.publicApiUrl}: the demo TPP uses it.\n`);
  return { apiUrl: config.publicApiUrl, authUrl: authUrl ?? config.publicAuthUrl,
    startedHere: false };
}

export async function demoTpp(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args, options: {
      port: { type: "string" }, "api-url": { type: "string" }, "auth-url": { type: "string" },
    },
  });
  const port = portOf(values.port);
  const { apiUrl, authUrl, startedHere } =
    await bank(config, values["api-url"], values["auth-url"]);
  const certDir = join(config.dataDir, "certs");
  const names = ["ca.crt", "tpp.crt", "tpp.key", "server.crt", "server.key"];
  const files = names.map((f) => readFile(join(certDir, f)));
  const [ca, cert, key, serverCert, serverKey] = await Promise.all(files).catch(() => {
    throw new OperatorError(`no demo certificates in ${certDir}: run "npm start" once first`);
  });
  // On the bank's HOST: all of a container's interfaces in the image, loopback by default.
  const demo = await startDemoTpp({
    apiUrl, identity: { ca: ca!, cert: cert!, key: key! }, host: config.host, port,
    debtorIban: makeIban("DE", "500100001000000001"),
    merchantIban: makeIban("DE", "500100003000000001"), merchantName: "Carol Weber",
    // The development server certificate names localhost and is of the CA the bank trusts.
    notifications: { ca: ca!, cert: serverCert!, key: serverKey! },
    oauth: config.scaApproaches.includes("oauth")
      ? { issuer: authUrl, clientId: clientIdOf(cert!) } : undefined,
  });
  // A bank started here stops the process on SIGTERM or Ctrl-C; otherwise the demo TPP does.
  if (!startedHere) {
    const stop = () => void demo.close().then(() => process.exit(0));
    process.once("SIGTERM", stop).once("SIGINT", stop);
  }
  process.stdout.write(`\nDemo TPP at ${demo.url} using the bank at ${apiUrl}\n`
    + "  Shop checkout (payment):     " + `${demo.url}/shop\n`
    + "  Budget (account information): " + `${demo.url}/budget (also through OAuth2)\n`
    + "  Statuses the bank pushed:     " + `${demo.url}/statuses\n`
    + "  Log in at the bank as one of the demo PSUs above (alice / alice-demo).\n");
}
