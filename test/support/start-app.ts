/**
 * Starts a real psd2-bank in-process for a test: real TLS on port 0, a fresh development CA and a
 * fresh SQLite file in a temporary directory, the demo data seeded.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import type { Clock } from "../../src/lib/clock.js";
import {
  issueTppCertificate, loadKeyAndCertificate, type DevCertificatePaths, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { BrowserClient } from "./browser.js";
import { createTestDatabase, type Engine } from "./postgres.js";
import { TppClient } from "./tpp-client.js";

export interface TestBank {
  app: App;
  apiUrl: string;
  authUrl: string;
  adminUrl: string;
  certs: DevCertificatePaths;
  ca: Buffer;
  /** The demo TPP (all four roles). */
  tpp: TppClient;
  /** A client with a certificate of another TPP, issued by the same CA. */
  tppWith(request: Partial<TppCertificateRequest>): Promise<TppClient>;
  browser(): BrowserClient;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** SQLite (default) in a fresh file, or PostgreSQL in a fresh database dropped on close. */
  engine?: Engine;
}

export async function startBank(options: StartOptions = {}): Promise<TestBank> {
  const dataDir = await mkdtemp(join(tmpdir(), "psd2-bank-test-"));
  const database = options.engine === "postgres" ? await createTestDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir, API_PORT: "0", AUTH_PORT: "0", ADMIN_PORT: "0", LOG_LEVEL: "silent",
    DATABASE_URL: database?.url ?? "", ...options.env,
  });
  const app = await buildApp(config, { clock: options.clock, logLevel: "silent" });
  const { apiUrl, authUrl, adminUrl } = await app.listen();
  const certs = app.certificates;
  if (!certs) throw new Error("test banks use the development CA");
  const [ca, cert, key] = await Promise.all([
    readFile(certs.caCert), readFile(certs.tppCert), readFile(certs.tppKey),
  ]);
  const tpp = new TppClient(apiUrl, { ca, cert, key });
  const clients: TppClient[] = [tpp];
  return {
    app, apiUrl, authUrl, adminUrl, certs, ca, tpp,
    async tppWith(request) {
      const issuer = await loadKeyAndCertificate(certs.caCert, certs.caKey);
      const issued = await issueTppCertificate(issuer, {
        name: "Other TPP", organizationIdentifier: "PSDDE-BAFIN-999999", roles: ["PSP_PI", "PSP_AI", "PSP_IC"],
        ...request,
      });
      const client = new TppClient(apiUrl, { ca, cert: issued.certPem, key: issued.keyPem });
      clients.push(client);
      return client;
    },
    browser: () => new BrowserClient(authUrl, ca),
    async close() {
      for (const client of clients) client.close();
      await app.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
