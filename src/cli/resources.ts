/** `psd2-bank payment ...` and `psd2-bank consent ...`: find across TPPs, show with history. */
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import { OperatorError } from "../domain/kernel/errors.js";
import type { AuthorisationRow, Shown } from "../domain/administration/resources.js";
import { print, required, table, usageEntry } from "./output.js";

export const RESOURCE_USAGE = [
  usageEntry("payment find [--tpp ID] [--psu LOGIN] [--account IBAN] [--limit N]"),
  usageEntry("payment show ID", "a payment with its authorisations and request history, and "
    + "why it had no second factor (the SCA exemption's RTS article)"),
  usageEntry("payment report-fraud ID", "records the PSU's report of an executed payment as "
    + "fraud; prints the fraud rate of the last 90 days (RTS art. 18)",
  "and whether its payee IBAN is flagged (reported by two PSUs: PSR art. 83, proposal)"),
  usageEntry("consent find [--tpp ID] [--psu LOGIN] [--account IBAN] [--limit N]"),
  usageEntry("consent show ID",
    "a consent with its accounts, authorisations and request history"),
  usageEntry("consent revoke ID",
    "revokes a valid consent on the PSU's request (revokedByPsu)"),
].join("\n");

function shown<T extends object>(item: Shown<T>): string {
  const fields = Object.entries(item.resource)
    .map(([k, v]) => [k, Array.isArray(v) ? v.join("; ") : String(v ?? "")]);
  const authorisations = table(["id", "scaStatus", "psu", "created", "updated", "exempted under"],
    item.authorisations.map((a: AuthorisationRow) =>
      [a.id, a.scaStatus, a.psu ?? "", a.createdAt, a.updatedAt, a.exemption ?? ""]));
  const history = table(["at", "method", "path", "status", "request id"],
    item.history.map((h) => [h.at, h.method, h.path, String(h.status), h.requestId ?? ""]));
  return `${table(["field", "value"], fields)}\nAuthorisations\n${authorisations}`
    + `\nHistory\n${history}`;
}

export async function resourceCommand(
  kind: "payment" | "consent", admin: Administration, args: string[],
): Promise<void> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: {
      json: { type: "boolean" }, tpp: { type: "string" }, psu: { type: "string" },
      account: { type: "string" }, limit: { type: "string" },
    },
  });
  const [action, id] = positionals;
  const queries = admin.resources;
  const filter = { tpp: values.tpp, psu: values.psu, account: values.account,
    limit: values.limit === undefined ? undefined : Number(values.limit) };
  if (action === "find" && kind === "payment") {
    const rows = await queries.findPayments(filter);
    return print(values.json, rows, () => table(
      ["id", "tpp", "psu", "status", "amount", "debtor", "creditor", "created"],
      rows.map((p) => [p.id, p.tpp, p.psu ?? "", p.status, `${p.amount} ${p.currency}`,
        p.debtorIban, `${p.creditorName} ${p.creditorIban}`, p.createdAt])));
  }
  if (action === "find") {
    const rows = await queries.findConsents(filter);
    return print(values.json, rows, () => table(
      ["id", "tpp", "psu", "status", "valid until", "per day", "accounts"],
      rows.map((c) => [c.id, c.tpp, c.psu ?? "", c.status, c.validUntil,
        String(c.frequencyPerDay), c.accounts.join("; ")])));
  }
  if (action === "revoke" && kind === "consent") {
    const row = await queries.revokeConsent(required(id, "the consent's id"));
    return print(values.json, row, () => `consent ${row.id} is now ${row.status}`);
  }
  if (action === "report-fraud" && kind === "payment") {
    const report = await queries.reportFraud(required(id, "the payment's id"));
    return print(values.json, report, () => `payment ${report.paymentId} reported as fraud; `
      + `fraud rate of the last 90 days: ${report.fraudRatePpm} per million; transaction risk `
      + `analysis (TRA_EXEMPTION) may exempt payments up to ${report.traLimit}; payee `
      + `${report.payeeIban} ${report.payeeFlagged ? "is flagged" : "is not flagged (yet)"}`);
  }
  if (action === "show") {
    const item = kind === "payment"
      ? await queries.showPayment(required(id, "the payment's id"))
      : await queries.showConsent(required(id, "the consent's id"));
    return print(values.json, item, () => shown<object>(item));
  }
  const actions = kind === "consent" ? "find, show, revoke" : "find, show, report-fraud";
  throw new OperatorError(`${kind} needs one of: ${actions}\n${RESOURCE_USAGE}`);
}
