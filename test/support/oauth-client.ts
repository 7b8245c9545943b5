/**
 * A TPP's OAuth client for tests: openid-client (an independent, OpenID-certified client, not our
 * server's library) over real mutual TLS with the TPP's certificate, discovering the bank's
 * RFC 8414 metadata and using its mtls_endpoint_aliases. The PSU's part runs in a BrowserClient
 * (or in a real chromium, in the e2e tests).
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { Agent, request } from "node:https";
import * as client from "openid-client";
import { formOf, type BrowserClient, type Page } from "./browser.js";
import { codeFor } from "./psu.js";
import type { TestBank } from "./start-app.js";
import { csrfOf } from "./browser.js";

export const CALLBACK = "https://tpp.example/cb";
export const DEMO_TPP_ID = "PSDDE-BAFIN-123456";

interface Tls { ca: Buffer | string; cert?: Buffer | string; key?: Buffer | string }

/** fetch over node:https with a client certificate: what openid-client calls (customFetch). */
export function mtlsFetch(tls: Tls): client.CustomFetch {
  const agent = new Agent({ ...tls, keepAlive: false });
  return (url, options) => new Promise<Response>((resolve, reject) => {
    const headers = Object.fromEntries(new Headers(options.headers).entries());
    const req = request(url, { method: options.method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : [value ?? ""]) answer.append(name, v);
        }
        const body = chunks.length > 0 ? Buffer.concat(chunks) : null;
        resolve(new Response(body, { status: res.statusCode ?? 0, headers: answer }));
      });
    });
    req.on("error", reject);
    if (options.body !== undefined && options.body !== null) req.write(String(options.body));
    req.end();
  });
}

/** The demo TPP's (or another certificate's) client configuration, by discovery. */
export async function oauthClient(bank: TestBank, tls?: { cert: string; key: string }, id = DEMO_TPP_ID) {
  const [cert, key] = tls ? [tls.cert, tls.key]
    : await Promise.all([readFile(bank.certs.tppCert), readFile(bank.certs.tppKey)]);
  const fetch = mtlsFetch({ ca: bank.ca, cert, key });
  return client.discovery(new URL(bank.authUrl), id, {
    use_mtls_endpoint_aliases: true, tls_client_certificate_bound_access_tokens: true,
  }, client.TlsClientAuth(), { algorithm: "oauth2", [client.customFetch]: fetch });
}

/** A pushed request for `scope` with PKCE S256; the browser starts at `url`. */
export async function pushRequest(config: client.Configuration, scope: string, extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: CALLBACK, scope, state, code_challenge_method: "S256",
    code_challenge: await client.calculatePKCECodeChallenge(verifier), ...extra,
  });
  return { url, verifier, state };
}

/** Follows the bank's redirects (absolute or relative) until a page or the TPP's callback. */
export async function follow(browser: BrowserClient, page: Page): Promise<Page> {
  let current = page;
  for (let hops = 0; hops < 10 && [302, 303].includes(current.status) && current.location; hops += 1) {
    const next = new URL(current.location, browser.authUrl);
    if (next.origin !== new URL(browser.authUrl).origin) return current;
    current = await browser.get(next.pathname + next.search);
  }
  return current;
}

/**
 * The PSU's part in a BrowserClient: the authorisation URL, login, code, review, confirm (or
 * cancel), the result page's way back; returns the callback URL the TPP receives.
 */
export async function authoriseInBrowser(
  browser: BrowserClient, url: URL, login: string,
  options: { accounts?: string[]; cancel?: boolean; redirectUri?: string } = {},
): Promise<URL> {
  const callback = options.redirectUri ?? CALLBACK;
  const loginPage = await follow(browser, await browser.get(url.pathname + url.search));
  if (loginPage.location?.startsWith(callback)) return new URL(loginPage.location);
  assert.match(loginPage.html, /name="password"/, loginPage.html);
  const form = formOf(loginPage.html, /name="password"/);
  const codePage = await follow(browser, await browser.post(form.action, { ...form.hidden, login, password: `${login}-demo` }));
  const review = await follow(browser, await browser.post("/sca/code", { _csrf: csrfOf(codePage.html), code: await codeFor(browser, login) }));
  assert.match(review.html, /action="\/sca\/confirm"/, review.html);
  const accounts = options.accounts ?? [];
  const decided = options.cancel
    ? await browser.post("/sca/cancel", { _csrf: csrfOf(review.html) })
    : await browser.post("/sca/confirm", { _csrf: csrfOf(review.html), account: accounts, balances: accounts, transactions: accounts });
  const result = await follow(browser, decided);
  const back = /<a class="button" href="([^"]+)"/.exec(result.html)?.[1]?.replace(/&amp;/g, "&");
  assert.ok(back, result.html);
  const toTpp = await follow(browser, await browser.get(new URL(back).pathname));
  assert.ok(toTpp.location?.startsWith(callback), `${toTpp.status} ${toTpp.location} ${toTpp.html}`);
  return new URL(toTpp.location ?? "");
}

export { client };
