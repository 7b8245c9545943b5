/**
 * Starts a real psd2-bank in-process for a test: real TLS on port 0, a fresh development CA and a
 * fresh SQLite file (or, with engine "postgres", a fresh PostgreSQL database) in a temporary
 * directory, the demo data seeded. `sharing` starts a second instance on another bank's database
 * and certificates, as two instances behind one load balancer.
 */
import { readFile } from "node:fs/promises";
import { buildApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import type { Clock } from "../../src/lib/clock.js";
import {
  issueTppCertificate, loadKeyAndCertificate, type DevCertificatePaths, type TppCertificateRequest,
} from "../../src/tpp/dev-ca.js";
import { BrowserClient } from "./browser.js";
import { freshDatabase, testEngine, type EngineDatabase, type Engine } from "./engines.js";
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
  /** The data directory and DATABASE_URL this bank runs on. */
  database: EngineDatabase;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Default: testEngine(), SQLite unless the file runs under rerunOnPostgres. */
  engine?: Engine;
  /** Run as another instance of this bank: same database, same CA; it removes them, not we. */
  sharing?: TestBank;
}

export async function startBank(options: StartOptions = {}): Promise<TestBank> {
  if (options.sharing) return startInstance(options.sharing.database, options, false);
  const database = await freshDatabase(options.engine ?? testEngine());
  // A bank that fails to start (tests of refused settings) must not leave its database behind.
  return startInstance(database, options, true).catch(async (error: unknown) => {
    await database.remove();
    throw error;
  });
}

async function startInstance(
  database: EngineDatabase, options: StartOptions, ownsDatabase: boolean,
): Promise<TestBank> {
  const config = loadConfig({
    DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, API_PORT: "0", AUTH_PORT: "0", ADMIN_PORT: "0",
    LOG_LEVEL: "silent", ...options.env,
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
    app, apiUrl, authUrl, adminUrl, certs, ca, tpp, database,
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
      if (ownsDatabase) await database.remove();
    },
  };
}
