/**
 * Demo credit cards: purchases at merchants at home and abroad (with the original amount and the
 * exchange rate), settled in full from the PSU's current account on the 5th of each month. Booked
 * day by day together with that account's history, so both stay in booking-date order.
 */
import { addDays } from "../lib/clock.js";
import { hashSecret, newUuid } from "../lib/ids.js";
import { maskPan } from "../lib/pan.js";
import type { CardRecord, CardTransactionRecord } from "../store/cards.js";
import type { LedgerAccountRecord } from "../store/ledger.js";
import { bookedBalance, newLedgerAccount } from "./book.js";
import type { DemoCard, HistoryWriter } from "./history-writer.js";

interface Merchant { name: string; mcc: string; city: string; country: string; currency: string }

const CARD_MERCHANTS: readonly Merchant[] = [
  { name: "REWE Markt", mcc: "5411", city: "Berlin", country: "DE", currency: "EUR" },
  { name: "Shell Station", mcc: "5541", city: "Hamburg", country: "DE", currency: "EUR" },
  { name: "Lufthansa", mcc: "4511", city: "Frankfurt am Main", country: "DE", currency: "EUR" },
  { name: "Amazon EU", mcc: "5942", city: "Luxembourg", country: "LU", currency: "EUR" },
  { name: "Trattoria Il Gallo", mcc: "5812", city: "Muenchen", country: "DE", currency: "EUR" },
  { name: "Netflix", mcc: "4899", city: "Amsterdam", country: "NL", currency: "EUR" },
  { name: "Pret A Manger", mcc: "5814", city: "London", country: "GB", currency: "GBP" },
  { name: "Apple Store Fifth Avenue", mcc: "5732", city: "New York", country: "US",
    currency: "USD" },
  { name: "Migros", mcc: "5411", city: "Zuerich", country: "CH", currency: "CHF" },
];

/** Units of the merchant's currency per euro, fixed so the history stays deterministic. */
const RATES: Record<string, { rate: string; per: bigint }> = {
  GBP: { rate: "0.8550", per: 8_550n }, USD: { rate: "1.0850", per: 10_850n },
  CHF: { rate: "0.9400", per: 9_400n },
};

const SETTLEMENT_DAY = 5;

export class DemoCardHistory {
  readonly account: LedgerAccountRecord;
  readonly card: CardRecord;
  readonly details: CardTransactionRecord[] = [];

  constructor(private readonly w: HistoryWriter, demo: DemoCard, owner: LedgerAccountRecord,
    private readonly clearingId: string, private readonly random: () => number, createdAt: string) {
    this.account = newLedgerAccount(newUuid(), "card", {
      psuId: owner.psuId, ownerName: owner.ownerName, product: demo.product, name: demo.product,
      usage: "PRIV", debitsMustNotExceedCredits: true,
    }, createdAt);
    this.card = {
      accountId: this.account.id, maskedPan: maskPan(demo.pan), panHash: hashSecret(demo.pan),
      creditLimit: demo.creditLimitMinor,
    };
    w.accounts.set(this.account.id, this.account);
    w.creditLimits.set(this.account.id, demo.creditLimitMinor);
  }

  /** One day of the card: the monthly settlement from `payerId`, then maybe a purchase. */
  day(day: string, payerId: string): void {
    const card = this.w.accounts.get(this.account.id);
    const owed = card ? -bookedBalance(card) : 0n;
    if (Number(day.slice(8, 10)) === SETTLEMENT_DAY && owed > 0n) {
      this.w.book(payerId, this.account.id, owed, day, {
        name: `${this.account.product ?? "Card"} ${this.card.maskedPan}`, iban: "",
        remittance: `Kartenabrechnung ${addDays(day, -SETTLEMENT_DAY).slice(0, 7)}`,
        code: "PMNT-CCRD-OTHR",
      });
    }
    if (this.random() < 0.35) this.purchase(day);
  }

  private purchase(day: string): void {
    const m = CARD_MERCHANTS[Math.floor(this.random() * CARD_MERCHANTS.length)]
      ?? CARD_MERCHANTS[0];
    if (!m) return;
    const amount = BigInt(Math.floor(300 + this.random() * 15_000));
    const transactionDate = addDays(day, -1 - Math.floor(this.random() * 2));
    const minute = Math.floor(this.random() * 14 * 60) + 8 * 60;
    const twoDigits = (n: number) => String(n).padStart(2, "0");
    const time = `${twoDigits(Math.floor(minute / 60))}:${twoDigits(minute % 60)}`;
    const id = this.w.book(this.account.id, this.clearingId, amount, day, {
      name: m.name, iban: "", remittance: `${m.name} ${m.city}`, code: "PMNT-CCRD-POSD",
    });
    if (id === undefined) return;
    const foreign = RATES[m.currency];
    this.details.push({
      transferId: id, maskedPan: this.card.maskedPan, transactionDate,
      acceptorTime: `${transactionDate}T${time}:00Z`, merchantCategoryCode: m.mcc,
      cardAcceptorId: `${m.mcc}${m.country}${m.name.length.toString().padStart(4, "0")}`,
      cardAcceptorCity: m.city, cardAcceptorCountry: m.country,
      originalAmount: foreign ? (amount * foreign.per + 5_000n) / 10_000n : null,
      originalCurrency: foreign ? m.currency : null, exchangeRate: foreign?.rate ?? null,
    });
  }
}
