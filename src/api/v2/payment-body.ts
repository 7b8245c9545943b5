/**
 * The PIS 2.4.1 payment bodies and answers, read into and shown from the one payment aggregate:
 * 2.x names what 1.3 flattened (creditor.name for creditorName, paymentIdentification.endToEndId,
 * creditorAgent.financialInstitutionId.bicfi, remittance as a one-line list, creditTransfers for a
 * bulk's payments), has no requestedExecutionDate, and asks a bulk for its count, control sum and
 * paymentInformationId. The domain's rules judge the fields; a refusal names the field in 2.x's
 * words.
 */
import type { InitiationInput } from "../../domain/payment/initiation.js";
import type { Payment, PaymentService, PostalAddress } from "../../domain/payment/model.js";
import type { BulkEntryInput, PaymentInitiationInput } from "../../domain/payment/rules.js";
import { formatError, relocated, Xs2aError } from "../../domain/kernel/errors.js";
import { formatAmount } from "../../lib/money.js";

const text = (maxLength: number) => ({ type: "string", maxLength }) as const;
const closed = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ type: "object", properties, required, additionalProperties: false }) as const;

const account = closed({ iban: text(34), currency: { type: "string", pattern: "^[A-Z]{3}$" } },
  ["iban"]);
/** The file's amount: a decimal string, up to 14 digits and 3 decimals (a sign is refused). */
const amount = closed({
  currency: { type: "string", pattern: "^[A-Z]{3}$" },
  amount: { type: "string", pattern: "^[0-9]{1,14}(\\.[0-9]{1,3})?$" },
}, ["currency", "amount"]);
const postalAddress = closed({
  streetName: text(70), buildingNumber: text(16), townName: text(35), postCode: text(16),
  country: text(2),
}, ["country"]);

/** What a single payment and a bulk's entry share (the file's minimum_SCT_Core). */
const entryProperties = {
  paymentIdentification: closed({ endToEndId: text(35) }),
  instructedAmount: amount,
  creditorAccount: account,
  creditorAgent: closed({ financialInstitutionId: closed({ bicfi: text(11) }, ["bicfi"]) },
    ["financialInstitutionId"]),
  creditor: closed({ name: text(70), postalAddress }, ["name"]),
  remittanceInformationUnstructured: { type: "array", minItems: 1, maxItems: 1, items: text(140) },
};
const ENTRY_REQUIRED = ["creditor", "creditorAccount", "instructedAmount"];

const singleBody = closed({ ...entryProperties, debtorAccount: account },
  [...ENTRY_REQUIRED, "debtorAccount"]);

const periodicBody = closed({
  ...entryProperties, debtorAccount: account,
  startDate: text(10), startDateTime: text(35), endDate: text(10), endDateTime: text(35),
  frequency: text(35), dayOfExecution: text(2), executionRule: text(35),
}, [...ENTRY_REQUIRED, "debtorAccount", "startDate", "frequency"]);

const bulkBody = closed({
  paymentInformationId: text(35), batchBooking: { type: "boolean" },
  numberOfTransactions: { type: "integer", minimum: 1 }, controlSum: text(35),
  debtorAccount: account,
  creditTransfers: { type: "array", minItems: 1, items: closed(entryProperties, ENTRY_REQUIRED) },
}, ["paymentInformationId", "numberOfTransactions", "controlSum", "debtorAccount",
  "creditTransfers"]);

/** Shapes only, by service; the domain's rules judge the values. */
export const V2_PAYMENT_BODIES: Record<PaymentService, object> = {
  "payments": singleBody, "periodic-payments": periodicBody, "bulk-payments": bulkBody,
};

type V2Account = { iban: string; currency?: string };
interface V2Entry {
  paymentIdentification?: { endToEndId?: string };
  instructedAmount: { currency: string; amount: string };
  creditorAccount: V2Account;
  creditorAgent?: { financialInstitutionId: { bicfi: string } };
  creditor: { name: string; postalAddress?: { country: string } & Record<string, string> };
  remittanceInformationUnstructured?: string[];
}
interface V2Periodic extends V2Entry {
  debtorAccount: V2Account; startDate: string; startDateTime?: string; endDate?: string;
  endDateTime?: string; frequency: string; dayOfExecution?: string; executionRule?: string;
}
interface V2Bulk {
  paymentInformationId: string; batchBooking?: boolean; numberOfTransactions: number;
  controlSum: string; debtorAccount: V2Account; creditTransfers: V2Entry[];
}
export type V2PaymentBody = (V2Entry & { debtorAccount: V2Account }) | V2Periodic | V2Bulk;

function entryInput(entry: V2Entry): BulkEntryInput {
  const { creditor, paymentIdentification, creditorAgent } = entry;
  const [remittance] = entry.remittanceInformationUnstructured ?? [];
  return {
    creditorAccount: entry.creditorAccount, creditorName: creditor.name,
    instructedAmount: entry.instructedAmount,
    ...(creditor.postalAddress && { creditorAddress: creditor.postalAddress }),
    ...(creditorAgent && { creditorAgent: creditorAgent.financialInstitutionId.bicfi }),
    ...(remittance !== undefined && { remittanceInformationUnstructured: remittance }),
    ...(paymentIdentification?.endToEndId !== undefined
      && { endToEndIdentification: paymentIdentification.endToEndId }),
  };
}

/** A date-time the bank takes as its date alone: it must fall on `date` when both are given. */
function dateOf(dateTime: string | undefined, date: string | undefined, field: string) {
  if (dateTime === undefined) return date;
  const day = dateTime.slice(0, 10);
  if (date !== undefined && day !== date) {
    throw formatError("body", field, `${field} must fall on the date given beside it.`);
  }
  return day;
}

/** Amounts in thousandths (the file allows 3 decimals), to compare a bulk's control sum. */
function thousandths(decimal: string): bigint {
  const [whole = "0", fraction = ""] = decimal.split(".");
  return BigInt(whole) * 1000n + BigInt(fraction.padEnd(3, "0"));
}

/** A bulk's count and control sum must be its credit transfers'. */
function checkBulkTotals(body: V2Bulk): void {
  const { creditTransfers } = body;
  if (body.numberOfTransactions !== creditTransfers.length) {
    throw formatError("body", "numberOfTransactions",
      `numberOfTransactions is ${body.numberOfTransactions}, `
        + `creditTransfers has ${creditTransfers.length}.`);
  }
  const sum = creditTransfers.reduce((s, e) => s + thousandths(e.instructedAmount.amount), 0n);
  if (!/^[0-9]{1,18}(\.[0-9]{1,3})?$/.test(body.controlSum)
    || thousandths(body.controlSum) !== sum) {
    throw formatError("body", "controlSum",
      "controlSum must be the sum of the creditTransfers' amounts.");
  }
}

/** The 2.x body as the domain's initiation. Throws FORMAT_ERROR (with path). */
export function readV2Initiation(
  service: PaymentService, body: V2PaymentBody, corporateId: string | null,
): InitiationInput {
  if (service === "bulk-payments") {
    const bulk = body as V2Bulk;
    checkBulkTotals(bulk);
    return { service, corporateId, paymentInformationId: bulk.paymentInformationId, body: {
      debtorAccount: bulk.debtorAccount, batchBookingPreferred: bulk.batchBooking ?? false,
      payments: bulk.creditTransfers.map(entryInput),
    } };
  }
  const single = body as V2Periodic;
  const payment: PaymentInitiationInput =
    { ...entryInput(single), debtorAccount: single.debtorAccount };
  if (service === "payments") return { service, corporateId, body: payment };
  const endDate = dateOf(single.endDateTime, single.endDate, "endDateTime");
  return { service, corporateId, body: {
    ...payment, startDate: dateOf(single.startDateTime, single.startDate, "startDateTime") ?? "",
    ...(endDate !== undefined && { endDate }), frequency: single.frequency,
    ...(single.dayOfExecution !== undefined && { dayOfExecution: single.dayOfExecution }),
    ...(single.executionRule !== undefined && { executionRule: single.executionRule }),
  } };
}

/** 1.3's field names (the domain's) as 2.x writes them. */
const V2_NAMES: readonly (readonly [RegExp, string])[] = [
  [/^payments(?=\[|$)/, "creditTransfers"],
  [/(^|\.)creditorName$/, "$1creditor.name"],
  [/(^|\.)creditorAddress(?=\.|$)/, "$1creditor.postalAddress"],
  [/(^|\.)creditorAgent$/, "$1creditorAgent.financialInstitutionId.bicfi"],
  [/(^|\.)endToEndIdentification$/, "$1paymentIdentification.endToEndId"],
  [/(^|\.)remittanceInformationUnstructured$/, "$1remittanceInformationUnstructured[0]"],
  [/^batchBookingPreferred$/, "batchBooking"],
];

/** A refusal of the domain's rules, naming the field the TPP sent. */
export function asV2Field(error: unknown): never {
  if (error instanceof Xs2aError && error.origin === "body" && error.path !== undefined) {
    const path = V2_NAMES.reduce((p, [from, to]) => p.replace(from, to), error.path);
    throw relocated(error, path);
  }
  throw error;
}

/** `read`'s result, or its refusal naming the field the TPP sent. */
export function inV2Terms<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    return asV2Field(error);
  }
}

const accountOf = ({ iban, currency }: Payment["debtorAccount"]) =>
  ({ iban, ...(currency !== null && { currency }) });

function addressOf(address: PostalAddress) {
  return Object.fromEntries(Object.entries(address).filter(([, v]) => v !== null));
}

/** A payment's own fields as the file's minimum_generic names them. */
function presentEntry(p: Payment) {
  return {
    ...(p.endToEndId !== null && { paymentIdentification: { endToEndId: p.endToEndId } }),
    instructedAmount: { currency: p.currency, amount: formatAmount(p.amountMinor, p.currency) },
    creditorAccount: accountOf(p.creditorAccount),
    ...(p.creditorAgent !== null
      && { creditorAgent: { financialInstitutionId: { bicfi: p.creditorAgent } } }),
    creditor: { name: p.creditorName,
      ...(p.creditorAddress !== null && { postalAddress: addressOf(p.creditorAddress) }) },
    ...(p.remittance !== null && { remittanceInformationUnstructured: [p.remittance] }),
  };
}

/** GET of a single or periodic payment: SinglePayment_generic, PeriodicPayment_generic. */
export function presentV2Payment(p: Payment) {
  const order = p.standingOrder;
  return {
    ...presentEntry(p), debtorAccount: accountOf(p.debtorAccount),
    ...(order !== null && {
      startDate: order.startDate, frequency: order.frequency,
      ...(order.endDate !== null && { endDate: order.endDate }),
      ...(order.dayOfExecution !== null && { dayOfExecution: String(order.dayOfExecution) }),
      ...(order.executionRule !== null && { executionRule: order.executionRule }),
    }),
    transactionStatus: p.status,
  };
}

/** GET of a bulk: BulkPayment_generic, its payments without the bulk's debtor. */
export function presentV2Bulk({ payment, entries }: { payment: Payment; entries: Payment[] }) {
  return {
    paymentInformationId: payment.paymentInformationId ?? payment.id,
    batchBooking: payment.batchBooking ?? false,
    numberOfTransactions: entries.length,
    controlSum: formatAmount(payment.amountMinor, payment.currency),
    debtorAccount: accountOf(payment.debtorAccount),
    creditTransfers: entries.map(presentEntry),
    transactionStatus: payment.status,
  };
}
