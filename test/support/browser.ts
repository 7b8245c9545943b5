/**
 * A PSU's browser for tests without a browser: HTTPS with the bank's CA, a cookie jar, no
 * automatic redirects (tests assert each Location), form posts, and the CSRF token from the page.
 */
import { Agent, request } from "node:https";

export interface Page { status: number; location: string | undefined; html: string; headers: Record<string, unknown> }

export class BrowserClient {
  private readonly agent: Agent;
  private readonly cookies = new Map<string, string>();

  constructor(readonly authUrl: string, ca: Buffer) {
    this.agent = new Agent({ ca, keepAlive: false });
  }

  private send(method: string, url: string, form?: URLSearchParams): Promise<Page> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const body = form?.toString();
    if (body !== undefined) headers["Content-Type"] = "application/x-www-form-urlencoded";
    return new Promise((resolve, reject) => {
      const req = request(new URL(url, this.authUrl), { method, agent: this.agent, headers }, (res) => {
        for (const cookie of res.headers["set-cookie"] ?? []) {
          const [pair = ""] = cookie.split(";");
          const [name = "", ...value] = pair.split("=");
          this.cookies.set(name, value.join("="));
        }
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({
          status: res.statusCode ?? 0, location: res.headers.location,
          html: Buffer.concat(chunks).toString("utf8"), headers: res.headers,
        }));
      });
      req.on("error", reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  get(url: string): Promise<Page> {
    return this.send("GET", url);
  }

  post(url: string, fields: Record<string, string | string[]>): Promise<Page> {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    }
    return this.send("POST", url, form);
  }

  /** Follows redirects within the bank's pages; stops at the first Location outside them. */
  async follow(page: Page): Promise<Page> {
    let current = page;
    while (current.status === 303 && current.location && current.location.startsWith("/")) {
      current = await this.get(current.location);
    }
    return current;
  }

  hasSession(): boolean {
    return this.cookies.has("__Host-psd2-sca");
  }
}

/** The page's error message (role=alert) as text. */
export function errorText(page: Page): string {
  return (/<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(page.html)?.[1] ?? "")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error(`no CSRF token in page:\n${html.slice(0, 500)}`);
  return match[1];
}

/** A form of the page as a browser would send it: its action and its hidden fields. */
export interface FormOf { action: string; hidden: Record<string, string> }

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) =>
  String.fromCharCode(Number(code))).replace(/&amp;/g, "&");

/** The page's first form whose opening tag or fields match `which`. */
export function formOf(html: string, which: RegExp): FormOf {
  const form = [...html.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)]
    .find((m) => which.test(m[0]));
  if (!form) throw new Error(`no form matching ${which} in page:\n${html.slice(0, 800)}`);
  const hidden: Record<string, string> = {};
  for (const input of (form[2] ?? "").matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    hidden[input[1] ?? ""] = unescapeHtml(input[2] ?? "");
  }
  return { action: unescapeHtml(form[1] ?? ""), hidden };
}
