/**
 * The MT940 and MT942 writers on their own: the SWIFT X character set, six :86: lines of 65
 * characters at most, no continuation line that reads as a tag or as the end, amounts with a
 * decimal comma, and the MT942's own tags.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Parser } from "mt940js";
import { mt940, mt942, swiftText } from "../../src/api/mt94x.js";
import type {
  BankAccount, BookedTransaction, PendingTransaction,
} from "../../src/domain/account-information/core-banking.js";

const account: BankAccount = {
  id: "a1", iban: "DE96500100001000000001", currency: "EUR", psuId: "p1", ownerName: "Jörg Weiß",
  name: "Girokonto", product: "Girokonto", cashAccountType: "CACC", status: "enabled", usage: null,
  bic: null, signaturesRequired: 1,
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

test("an MT942 report: zero floor limit, time in UTC, booked then pending, totals per side", () => {
  const pending: PendingTransaction = {
    transactionId: "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d", transactionDate: "2026-11-25",
    amountMinor: -4_250n, currency: "EUR", creditorName: "Bäckerei", creditorIban: null,
    debtorName: null, debtorIban: null, remittance: null, bankTransactionCode: null,
  };
  const text = mt942({
    account, dateFrom: "2026-11-01", dateTo: "2026-11-25",
    booked: [entry(-1_000n, "Miete"), entry(250_000n, "Gehalt")], pending: [pending],
    openingMinor: 0n, closingMinor: 0n, current: true,
  }, "2026-11-25", new Date("2026-11-25T14:07:59Z"));
  const lines = text.split("\r\n");
  assert.deepEqual(lines.slice(0, 5), [":20:2026-11-25", `:25:${account.iban}`, ":28C:00001",
    ":34F:EUR0,", ":13D:2611251407+0000"]);
  assert.match(text, /\r\n:61:2611251125D42,50NTRFNONREF\/\/9a1b2c3d4e5f4a6b\r\n:86:Baeckerei\r\n/);
  assert.deepEqual(lines.slice(-4), [":90D:2EUR52,50", ":90C:1EUR2500,00", "-", ""]);
});
