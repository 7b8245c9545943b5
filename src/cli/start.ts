/** `psd2-bank start`: both listeners, the ready banner, and a clean stop on SIGTERM or Ctrl-C. */
import { API_BASE } from "../app/api-routes.js";
import { buildApp, type App } from "../app/build-app.js";
import { demoCodeLines, demoPsuLines } from "../app/seeding.js";
import type { Config } from "../config.js";
import { makeIban } from "../lib/iban.js";
import type { DevCertificatePaths } from "../tpp/dev-ca.js";

type Urls = { apiUrl: string; authUrl: string };

function banner(app: App, urls: Urls): string {
  const ms = Math.round(process.uptime() * 1000);
  const mode = `${app.config.mode} mode, ${app.store.engine}`;
  const ready = `
psd2-bank is ready, ${ms} ms after the process started (${mode})
  TPP API     ${urls.apiUrl}${API_BASE}   (client certificate required)
  PSU pages   ${urls.authUrl}
`;
  const certs = app.certificates;
  return certs && app.config.seedDemoData ? ready + sandboxGuide(certs, urls) : ready;
}

/** Where each demo PSU's authorization code is read in the sandbox. */
function codesGuide(certs: DevCertificatePaths, urls: Urls): string {
  const lines = demoCodeLines(urls.authUrl).map((line) => `    ${line}`);
  return [`  Their codes (curl -s --cacert ${certs.caCert} URL, or a browser):`, ...lines]
    .join("\n");
}

function sandboxGuide(certs: DevCertificatePaths, urls: Urls): string {
  const creditor = makeIban("DE", "500100001000000002");
  const debtor = makeIban("DE", "500100001000000001");
  const psus = demoPsuLines().map((line) => `    ${line}`).join("\n");
  const body = JSON.stringify({
    debtorAccount: debtor, creditorAccount: creditor, creditorName: "Alice Schmidt",
    instructedAmount: { currency: "EUR", amount: 12.5 },
    remittanceInformationUnstructured: "Order 42",
  });
  return `  Certificates in ${certs.dir}: ca.crt, tpp.crt, tpp.key
  Demo PSUs:
${psus}
${codesGuide(certs, urls)}
  Try it:
    curl -s --cacert ${certs.caCert} --cert ${certs.tppCert} --key ${certs.tppKey} \\
      -H "X-Request-ID: $(node -p 'crypto.randomUUID()')" -H "Content-Type: application/json" \\
      -H "TPP-Redirect-URI: ${urls.authUrl}/sandbox/tpp/ok" `
    + `-H "TPP-Nok-Redirect-URI: ${urls.authUrl}/sandbox/tpp/nok" \\
      -d '${body}' \\
      ${urls.apiUrl}${API_BASE}/payments/sepa-credit-transfers
    then open _links.scaRedirect in a browser and log in as alice.
`;
}

export async function start(config: Config): Promise<Urls> {
  // Handlers go in before the first await: a SIGTERM during start-up must still end with exit 0.
  let app: App | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (app) {
      app.api.log.info({ signal }, "stopping: draining in-flight requests");
      await app.close();
    }
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  app = await buildApp(config);
  const urls = await app.listen();
  process.stdout.write(banner(app, urls));
  return urls;
}
