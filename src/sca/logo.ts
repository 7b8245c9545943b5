/**
 * The bank's logo on the PSU pages, from BANK_LOGO_FILE, so a bank rebrands without touching
 * code. Without one, a mark with the bank's initials. Served by the bank itself (img-src 'self').
 */
import { readFile } from "node:fs/promises";
import { escapeHtml } from "../lib/html.js";

export interface BankLogo { contentType: string; body: Buffer }

function initials(bankName: string): string {
  return bankName.split(/\s+/).filter((word) => /^\p{Lu}/u.test(word)).slice(0, 3)
    .map((word) => word[0]).join("") || "B";
}

function initialsMark(bankName: string): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="10" fill="#fff"/>
<text x="32" y="41" text-anchor="middle" font-family="system-ui, sans-serif" font-size="24"
 font-weight="700" fill="#0b4f8a">${escapeHtml(initials(bankName))}</text></svg>`);
}

export async function loadBankLogo(file: string, bankName: string): Promise<BankLogo> {
  if (!file) return { contentType: "image/svg+xml", body: initialsMark(bankName) };
  const contentType = file.toLowerCase().endsWith(".svg") ? "image/svg+xml" : "image/png";
  return { contentType, body: await readFile(file) };
}
