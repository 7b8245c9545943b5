/**
 * The MT940 writer on its own: the SWIFT X character set, six :86: lines of 65 characters at
 * most, no continuation line that reads as a tag or as the end, amounts with a decimal comma.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Parser } from "mt940js";
import { mt940, swiftText } from "../../src/api/mt940.js";
import type { BankAccount, BookedTransaction } from "../../src/domain/core-banking.js";

const account: BankAccount = {
  id: "a1", iban: "DE96500100001000000001", currency: "EUR", psuId: "p1", ownerName: "Jörg Weiß",
  name: "Girokonto", product: "Girokonto", cashAccountType: "CACC", status: "enabled", usage: null,
  bic: null,
};

function entry(amountMinor: bigint, remittance: string): BookedTransaction {
  return {
    transactionId: "7d3c1c6e-0000-4000-8000-000000000001", entryReference: "123456789012345678",
    endToEndId: "E2E-Über/2026:1", bookingDate: "2026-10-30", valueDate: "2026-10-31",
    balanceAfterMinor: 0n, amountMinor, currency: "EUR", creditorName: "Café Crème",
    creditorIban: "DE89370400440532013000", debtorName: "Jörg Weiß", debtorIban: account.iban,
    remittance, bankTransactionCode: null,
  };
}

test("umlauts are spelled out, accents dropped, anything else outside SWIFT X a space", () => {
  assert.equal(swiftText("Müller & Söhne – Café {ok}"), "Mueller Soehne Cafe ok");
});

test("a long remittance fills at most six :86: lines of 65, none read as a tag or the end", () => {
  const remittance = `${"Rechnung 2026-10 : ".repeat(30)}-ende`;
  const text = mt940({
    account, dateFrom: "2026-10-01", dateTo: "2026-10-31", booked: [entry(-1_234_567n, remittance)],
    pending: [], openingMinor: 2_000_000n, closingMinor: 765_433n, current: false,
  }, "2026-10-31");
  const lines = text.split("\r\n").slice(0, -1);
  assert.ok(lines.every((line) => line.length <= 65), text);
  const details = lines.slice(lines.findIndex((l) => l.startsWith(":86:")), -2);
  assert.equal(details.length, 6, text);
  assert.ok(details.slice(1).every((l) => !l.startsWith(":") && !l.startsWith("-")), text);
  assert.ok(lines.includes(":60F:C261001EUR20000,00"), text);
  assert.ok(lines.includes(":62F:C261031EUR7654,33"), text);
  assert.match(text, /\r\n:61:2610311030D12345,67NTRFE2E-Ueber\/2026:1\/\/1234567890123456\r\n/);
  const [statement] = new Parser().parse(text);
  assert.equal(statement?.transactions[0]?.amount, -12345.67);
});
