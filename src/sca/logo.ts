/**
 * The bank's logo on the PSU pages, from BANK_LOGO_FILE, so a bank rebrands without touching
 * code. Without one, a default mark. Served by the bank itself (img-src 'self').
 */
import { readFile } from "node:fs/promises";

export interface BankLogo { contentType: string; body: Buffer }

/**
 * The default mark: a bank's portico (pediment, four columns, steps) in the pages' blue on white,
 * legible at the header's 28 px and neutral enough for any bank that has not set its own.
 */
const DEFAULT_MARK = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"
 role="img" aria-label="Bank">
<rect width="64" height="64" rx="10" fill="#fff"/>
<g fill="#0b4f8a">
<path d="M32 9 L55 21 L55 25 L9 25 L9 21 Z"/>
<rect x="13" y="28" width="5" height="19" rx="1"/><rect x="23" y="28" width="5" height="19" rx="1"/>
<rect x="36" y="28" width="5" height="19" rx="1"/><rect x="46" y="28" width="5" height="19" rx="1"/>
<rect x="10" y="49" width="44" height="4" rx="1"/><rect x="7" y="54" width="50" height="4" rx="1"/>
</g></svg>`);

export async function loadBankLogo(file: string): Promise<BankLogo> {
  if (!file) return { contentType: "image/svg+xml", body: DEFAULT_MARK };
  const contentType = file.toLowerCase().endsWith(".svg") ? "image/svg+xml" : "image/png";
  return { contentType, body: await readFile(file) };
}
