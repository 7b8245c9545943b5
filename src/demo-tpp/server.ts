/**
 * A demo TPP on localhost: a shop checkout (payment initiation) and a budgeting page (account
 * information), each sending the browser through the bank's SCA pages and back. It talks to the
 * bank only over the XS2A API with the demo TPP certificate, as any TPP would.
 */
import { randomBytes } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { Html, html } from "../lib/html.js";
import {
  accountCard, budgetDateFrom, cardAccountCard, hrefOf, type Account, type CardAccount, type Link,
} from "./budget.js";
import { startInbox, type Inbox, type InboxIdentity, type Pushed } from "./inbox.js";
import { createOAuthClient, type Pending } from "./oauth-client.js";
import { Xs2aClient, type TlsIdentity, type Xs2aResponse } from "./xs2a-client.js";

export interface DemoTppOptions {
  /** The bank's TPP API base, e.g. https://localhost:8443 */
  apiUrl: string;
  identity: TlsIdentity;
  host: string;
  port: number;
  /** The demo shopper's account, prefilled on the checkout. */
  debtorIban: string;
  merchantIban: string;
  /** The holder's name of merchantIban, as the bank's Verification of Payee will check it. */
  merchantName: string;
  /** itemsPerPage of the budget's transaction reports; unset: the bank's default page. */
  transactionsPerPage?: number;
  /** The server identity (of the bank's CA) for receiving pushed statuses; unset: polling only. */
  notifications?: InboxIdentity;
  /** The bank's OAuth authorisation server (its issuer) and our client id; unset: no OAuth. */
  oauth?: { issuer: string; clientId: string };
}

export interface DemoTpp { url: string; close(): Promise<void> }

interface TppMessage { code?: string; text?: string }
/** NextGenPSD2 1.3 refuses with tppMessages, openFinance 2.x with apiClientMessages. */
interface Refusal { tppMessages?: TppMessage[]; apiClientMessages?: TppMessage[] }
interface Created { paymentId?: string; consentId?: string; _links?: { scaRedirect?: Link } }

const API = "/psd2/v1";

/**
 * An interface of the bank's account information, as the budget speaks it: where its consents
 * are created and read, their body (the PSU picks the accounts at the bank), and what its
 * redirect headers are called.
 */
interface AisInterface {
  base: string; consents: string; redirect: { ok: string; nok: string };
  /** The headers that subscribe to pushed statuses (each interface pushes its own form). */
  notification: { uri: string; preferred: string };
  consentBody(validTo: string): unknown;
}

const AIS_INTERFACES: Record<"v1" | "v2", AisInterface> = {
  v1: { base: API, consents: `${API}/consents`,
    redirect: { ok: "TPP-Redirect-URI", nok: "TPP-Nok-Redirect-URI" },
    notification: { uri: "TPP-Notification-URI", preferred: "TPP-Notification-Content-Preferred" },
    consentBody: (validUntil) => ({ access: { accounts: [], balances: [], transactions: [] },
      recurringIndicator: true, validUntil, frequencyPerDay: 4,
      combinedServiceIndicator: false }) },
  v2: { base: "/psd2/v2", consents: "/psd2/v2/consents/account-access",
    redirect: { ok: "Client-Redirect-URI", nok: "Client-Nok-Redirect-URI" },
    notification: { uri: "Client-Notification-URI",
      preferred: "Client-Notification-Content-Preferred" },
    consentBody: (validTo) => ({ access: { payments: [{ rights: ["ais"] }] },
      consentType: "aspspManaged", recurringIndicator: true, validTo, frequencyPerDay: 4 }) },
};

const aisInterface = (asked: string | undefined) =>
  asked === "v2" ? AIS_INTERFACES.v2 : AIS_INTERFACES.v1;
const PRODUCT = { name: "Fair-trade coffee beans, 1 kg", amount: "12.50", currency: "EUR" };

// The header wraps, dates and amounts keep to one line and the rest breaks anywhere, and a
// phone gets narrower margins: the page never scrolls sideways.
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:1rem auto;
padding:0 1rem;color:#1b1f24}header{display:flex;flex-wrap:wrap;justify-content:space-between;
align-items:baseline;column-gap:1rem;border-bottom:2px solid #0b6e4f;margin-bottom:1.5rem}
h1{font-size:1.6rem;margin:.5rem 0}
nav{padding-bottom:.5rem}nav a{display:inline-block;padding:.25rem 0}
a{color:#0b6e4f}.card{border:1px solid #d0d7de;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
button{background:#0b6e4f;color:#fff;border:0;border-radius:6px;`
  + `padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}
label{display:block;margin:.5rem 0}input{font-size:1rem;padding:.4rem;width:100%;max-width:26rem}
.ok{color:#0b6e4f}.nok{color:#b42318}table{border-collapse:collapse;width:100%;font-size:.9rem}
td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eaeef2;overflow-wrap:anywhere}
td:first-child,th.amount,td.amount{white-space:nowrap}th.amount,td.amount{text-align:right}
code{background:#f6f8fa;padding:0 .3rem;overflow-wrap:anywhere}
@media (max-width:30rem){body{padding:0 .5rem}.card{padding:.75rem}td,th{padding:.3rem .25rem}}`;

const VIEWPORT = html`<meta name="viewport" content="width=device-width,initial-scale=1">`;
const NAV = html`<a href="/">Demo TPP</a> · <a href="/shop">Shop</a> · ${""
}<a href="/budget">Budget</a> · <a href="/statuses">Statuses</a>`;

function page(title: string, body: Html, head: Html = html``): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">
${VIEWPORT}${head}<title>${title} · Demo TPP</title>
<style>${new Html(STYLE)}</style></head><body>
<header><h1>${title}</h1><nav>${NAV}</nav></header>
${body}</body></html>`.text;
}

function refusalText(body: unknown): string {
  const refusal = body as Refusal | undefined;
  const messages = refusal?.tppMessages ?? refusal?.apiClientMessages ?? [];
  return messages.map((m) => `${m.code ?? "ERROR"}: ${m.text ?? ""}`).join("; ")
    || "unexpected answer";
}

function problem(title: string, status: number, body: unknown): Html {
  return html`<div class="card nok"><h2>${title}</h2><p>The bank answered ${status}: ${
    refusalText(body)}</p></div>`;
}

function sendPage(reply: FastifyReply, title: string, body: Html, status = 200, head?: Html) {
  return reply.code(status).type("text/html").send(page(title, body, head));
}

/** Sends the browser to the bank's SCA page for a created resource, or shows why it refused. */
function toBank(reply: FastifyReply, title: string, created: Xs2aResponse<Created>,
  id: string | undefined, remember: (id: string) => void) {
  const redirect = hrefOf(created.body?._links?.scaRedirect);
  if (!id || !redirect) {
    return sendPage(reply, title, problem("Not started", created.status, created.body), 502);
  }
  remember(id);
  return reply.redirect(redirect, 303);
}

/** The return URL carries an unguessable state, never the bank's resource id. */
const newState = () => randomBytes(16).toString("hex");

const psuHeaders = (ip: string) => ({ "PSU-IP-Address": ip });

/** What the demo's routes share; base is known only once the server listens. */
interface Demo {
  bank: Xs2aClient;
  inbox: Inbox | undefined;
  options: DemoTppOptions;
  base: string;
}

const redirects = (demo: Demo, path: string, state: string,
  names = AIS_INTERFACES.v1.redirect) => ({
  [names.ok]: `${demo.base}${path}/${state}?result=ok`,
  [names.nok]: `${demo.base}${path}/${state}?result=nok`,
});

function homeRoute(app: FastifyInstance): void {
  app.get("/", async (_request, reply) => sendPage(reply, "Demo TPP", html`
<p>A third-party provider using the bank's PSD2 API with the demo certificate.</p>
<div class="card"><h2><a href="/shop">Shop checkout</a></h2><p>${""
}Pay for an order directly from your bank account
(payment initiation).</p></div>
<div class="card"><h2><a href="/budget">Budget</a></h2><p>${""
}Connect your accounts and see balances and transactions
(account information).</p></div>
<p>Demo PSUs: <code>alice</code> / <code>alice-demo</code>, <code>bob</code> / ${""
}<code>bob-demo</code>; the bank's
start banner tells how to get their authorization codes.</p>`));
}

function paymentOutcome(paymentId: string, value: string | undefined): Html {
  const paid = value === "ACSC" || value === "ACCC" || value === "ACSP" || value === "ACTC";
  return paid
    ? html`<div class="card ok"><h2>Thank you: paid</h2><p>Payment <code>${paymentId}</code> is ${
      value}.</p></div>`
    : html`<div class="card nok"><h2>Not paid</h2><p>Payment <code>${paymentId}</code> is ${
      value ?? "unknown"}.</p>
<p><a href="/shop">Try again</a></p></div>`;
}

function shopRoutes(app: FastifyInstance, demo: Demo): void {
  const { bank, options } = demo;
  const paymentsByState = new Map<string, string>();
  app.get("/shop", async (_request, reply) => sendPage(reply, "Checkout", html`
<div class="card"><p>${PRODUCT.name}</p><p><strong>${PRODUCT.amount} ${
  PRODUCT.currency}</strong></p></div>
<form method="post" action="/shop/pay"><label>Your IBAN <input name="debtorIban" value="${
  options.debtorIban}"
 required></label><button type="submit">Pay with your bank</button></form>`));
  app.post<{ Body: { debtorIban?: string } }>("/shop/pay", async (request, reply) => {
    const state = newState();
    const created = await bank.post<Created>(`${API}/payments/sepa-credit-transfers`, {
      debtorAccount: { iban: (request.body.debtorIban ?? "").replace(/\s+/g, "") },
      creditorAccount: { iban: options.merchantIban }, creditorName: options.merchantName,
      instructedAmount: { currency: PRODUCT.currency, amount: PRODUCT.amount },
      remittanceInformationUnstructured: `Order ${state.slice(0, 8)}`,
    }, { ...redirects(demo, "/shop/return", state), ...psuHeaders(request.ip),
      ...subscription(demo) });
    return toBank(reply, "Checkout", created, created.body?.paymentId,
      (id) => paymentsByState.set(state, id));
  });
  app.get<{ Params: { state: string } }>("/shop/return/:state", async (request, reply) => {
    const paymentId = paymentsByState.get(request.params.state);
    if (!paymentId) return sendPage(reply, "Checkout", html`<p>Unknown order.</p>`, 404);
    const status = await bank.get<{ transactionStatus?: string }>(
      `${API}/payments/${paymentId}/status`, psuHeaders(request.ip));
    return sendPage(reply, "Checkout", html`${
      paymentOutcome(paymentId, status.body?.transactionStatus)}${
      demo.inbox ? html`<p><a href="/statuses">Statuses the bank pushed</a></p>` : ""}`);
  });
}

/**
 * The budget page for a consent: every shared account and card with its last 90 days; with an
 * OAuth access token, every read carries it.
 */
async function budgetSections(
  demo: Demo, consentId: string, ip: string, token?: string, ais = AIS_INTERFACES.v1,
): Promise<Html> {
  const { bank, options } = demo;
  const api = ais.base;
  const bearer: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const headers = { "Consent-ID": consentId, ...psuHeaders(ip), ...bearer };
  const list = await bank.get<{ accounts?: Account[] }>(
    `${api}/accounts?withBalance=true`, headers);
  if (list.status !== 200 || !list.body?.accounts) {
    return problem("No access to your accounts", list.status, list.body);
  }
  // A PSU who shared no card gets a refusal here, which only means: no cards to show.
  const cardList = await bank.get<{ cardAccounts?: CardAccount[] }>(
    `${api}/card-accounts?withBalance=true`, headers);
  const dateFrom = budgetDateFrom(new Date());
  const perPage = options.transactionsPerPage;
  const query = `dateFrom=${dateFrom}&bookingStatus=booked`
    + (perPage ? `&itemsPerPage=${perPage}` : "");
  const sections = await Promise.all([
    ...list.body.accounts.map((a) => accountCard(bank, api, a, query, headers)),
    ...(cardList.body?.cardAccounts ?? [])
      .map((c) => cardAccountCard(bank, api, c, query, headers)),
  ]);
  return html`<p class="ok">Connected (consent
 <code>${consentId}</code>). The last 90 days:</p>${sections}`;
}

/** A consent for the budget: the PSU picks the accounts at the bank. */
function createBudgetConsent(demo: Demo, state: string, ip: string, ais = AIS_INTERFACES.v1) {
  const validTo = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  return demo.bank.post<Created>(ais.consents, ais.consentBody(validTo),
    { ...redirects(demo, "/budget/return", state, ais.redirect), ...psuHeaders(ip),
      ...subscription(demo, ais) });
}

function budgetRoutes(app: FastifyInstance, demo: Demo): void {
  const consentsByState = new Map<string, { consentId: string; ais: AisInterface }>();
  app.get("/budget", async (_request, reply) => sendPage(reply, "Budget", html`
<p>Connect your bank to see your balances and transactions here. ${""
}You choose the accounts on the bank's page.</p>
<form method="post" action="/budget/connect"><label>The bank's interface <select name="api">
<option value="v1">NextGenPSD2 1.3 (/psd2/v1)</option>
<option value="v2">openFinance 2.x (/psd2/v2)</option></select></label>${""
}<button type="submit">Connect your bank</button></form>${demo.options.oauth ? html`
<form method="post" action="/budget/oauth"><p>Or as the bank's OAuth2 client (FAPI 2.0: a pushed
 request, PKCE, a token bound to our certificate):</p>${""
}<button type="submit">Connect with OAuth2</button></form>` : ""}`));
  app.post<{ Body: { api?: string } | undefined }>("/budget/connect", async (request, reply) => {
    const state = newState();
    const ais = aisInterface(request.body?.api);
    const created = await createBudgetConsent(demo, state, request.ip, ais);
    return toBank(reply, "Budget", created, created.body?.consentId,
      (consentId) => consentsByState.set(state, { consentId, ais }));
  });
  app.get<{ Params: { state: string } }>("/budget/return/:state", async (request, reply) => {
    const found = consentsByState.get(request.params.state);
    if (!found) return sendPage(reply, "Budget", html`<p>Unknown connection.</p>`, 404);
    return sendPage(reply, "Budget",
      await budgetSections(demo, found.consentId, request.ip, undefined, found.ais));
  });
}

/**
 * The budget through OAuth2: the consent is created as usual, its authorisation is the login at
 * the bank's authorisation server, and every read carries the token.
 */
function oauthRoutes(
  app: FastifyInstance, demo: Demo, oauth: { issuer: string; clientId: string },
): void {
  const client = createOAuthClient(demo.bank, oauth.issuer, oauth.clientId);
  const pending = new Map<string, Pending & { consentId: string }>();
  app.post("/budget/oauth", async (request, reply) => {
    const state = newState();
    const created = await createBudgetConsent(demo, state, request.ip);
    const consentId = created.body?.consentId;
    if (!consentId) {
      return sendPage(reply, "Budget", problem("Not started", created.status, created.body), 502);
    }
    const pushed = await client.push(`AIS:${consentId}`, state, `${demo.base}/budget/oauth/return`);
    if (!pushed.ok) {
      return sendPage(reply, "Budget",
        problem("Not pushed", pushed.answer.status, pushed.answer.body), 502);
    }
    pending.set(state, { ...pushed.pending, consentId });
    return reply.redirect(pushed.url, 303);
  });
  app.get<{ Querystring: Record<string, string | undefined> }>("/budget/oauth/return",
    async (request, reply) => {
      const found = pending.get(request.query.state ?? "");
      pending.delete(request.query.state ?? "");
      const token = found && await client.redeem(found, request.query);
      if (!found || !token) {
        const why = request.query.error_description ?? "no token";
        return sendPage(reply, "Budget", html`<p class="nok">Not connected: ${why}.</p>`, 400);
      }
      return sendPage(reply, "Budget",
        await budgetSections(demo, found.consentId, request.ip, token));
    });
}

/** Asks the bank to push every status change of the resource to the demo's inbox. */
const subscription = (demo: Demo, ais = AIS_INTERFACES.v1): Record<string, string> => demo.inbox
  ? { [ais.notification.uri]: demo.inbox.url, [ais.notification.preferred]: "status=SCA,PROCESS" }
  : {};

/** PUSH 2.4 names the resource by its id's attribute; 1.3 by resourceType and resourceId. */
const PUSH_2_4_KINDS = { paymentId: "payment", consentId: "consent", basketId: "signing-basket" };

/** The pushed resource's kind and id, and the form (1.3 or 2.4) the body has. */
function pushedResource(body: Record<string, unknown>): { kind: string; id: string; form: string } {
  const field = Object.keys(PUSH_2_4_KINDS).find((name) => typeof body[name] === "string");
  if (field) {
    return { kind: PUSH_2_4_KINDS[field as keyof typeof PUSH_2_4_KINDS], id: String(body[field]),
      form: "2.4" };
  }
  return { kind: String(body.resourceType ?? ""), id: String(body.resourceId ?? ""), form: "1.3" };
}

function pushedRow(p: Pushed): Html {
  const { body } = p;
  const { kind, id, form } = pushedResource(body);
  const status = body.transactionStatus ?? body.consentStatus
    ?? (body.scaStatus ? `SCA ${String(body.scaStatus)}` : "changed (read its status)");
  return html`<tr><td>${p.receivedAt.slice(11, 19)}</td><td>${kind} <code>${id}</code></td>${""
  }<td><strong>${String(status)}</strong></td><td>${form}</td><td>${p.sender}</td></tr>`;
}

function statusesRoute(app: FastifyInstance, demo: Demo): void {
  // The page reloads itself: a new status shows within two seconds of its push.
  const refresh = html`<meta http-equiv="refresh" content="2">`;
  app.get("/statuses", async (_request, reply) => {
    if (!demo.inbox) {
      return sendPage(reply, "Pushed statuses", html`<p>Not enabled: this demo polls.</p>`);
    }
    const rows = demo.inbox.latest();
    return sendPage(reply, "Pushed statuses", html`<p>The bank pushes each change of a
 payment's, consent's or authorisation's status to <code>${demo.inbox.url}</code> (mutual TLS:
 only the bank's certificate is accepted), in NextGenPSD2 1.3's form for what was created on
 /psd2/v1, in openFinance PUSH 2.4's for /psd2/v2. Newest first:</p>${rows.length === 0
  ? html`<p>Nothing yet: pay in the <a href="/shop">shop</a>.</p>`
  : html`<table><tr><th>Time (UTC)</th><th>Resource</th><th>Status</th><th>Form</th>${""
  }<th>Sent by</th></tr>${rows.map(pushedRow)}</table>`}`, 200, refresh);
  });
}

export async function startDemoTpp(options: DemoTppOptions): Promise<DemoTpp> {
  const inbox = options.notifications && await startInbox(options.notifications, options.host);
  const bank = new Xs2aClient(options.apiUrl, options.identity);
  const demo: Demo = { bank, inbox, options, base: "" };
  const app: FastifyInstance = Fastify();
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
  homeRoute(app);
  shopRoutes(app, demo);
  budgetRoutes(app, demo);
  if (options.oauth) oauthRoutes(app, demo, options.oauth);
  statusesRoute(app, demo);
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  demo.base = `http://localhost:${port}`;
  return {
    url: demo.base,
    async close() {
      await app.close();
      await inbox?.close();
      demo.bank.close();
    },
  };
}
