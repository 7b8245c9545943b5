/** `psd2-bank account ...`: the operator's account administration on the embedded ledger. */
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import { OperatorError } from "../domain/kernel/errors.js";
import type { AccountSummary } from "../domain/administration/accounts.js";
import { print, required, table, usageEntry } from "./output.js";

export const ACCOUNT_USAGE = [
  usageEntry("account list [--login L]", "accounts with status and balances"),
  usageEntry("account open --login L [--currency EUR] [--product P] [--name N]",
    "open an account for a PSU (a new IBAN under BANK_CODE)"),
  usageEntry("account block IBAN | account unblock IBAN",
    "block payments from and to an account, or lift it"),
  usageEntry("account close IBAN", "close an account with a zero balance (history is kept)"),
  usageEntry("account credit IBAN AMOUNT [--text T]",
    "book test money from the bank's equity to the account"),
  usageEntry("account debit IBAN AMOUNT [--text T]",
    "book money from the account back to the equity"),
].join("\n");

const rows = (accounts: AccountSummary[]) => table(
  ["iban", "owner", "currency", "product", "status", "balance", "available"],
  accounts.map((a) =>
    [a.iban, a.owner, a.currency, a.product ?? "", a.status, a.balance, a.available]));

export async function accountCommand(admin: Administration, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: {
      json: { type: "boolean" }, login: { type: "string" }, currency: { type: "string" },
      product: { type: "string" }, name: { type: "string" }, text: { type: "string" },
    },
  });
  const [action, iban, amount] = positionals;
  const accounts = admin.accounts;
  switch (action) {
    case "list": {
      const list = await accounts.list(values.login);
      return print(values.json, list, () => rows(list));
    }
    case "open": {
      const opened = await accounts.open({
        login: required(values.login, "--login"), currency: values.currency ?? "EUR",
        product: values.product ?? "Girokonto", name: values.name ?? null,
      });
      return print(values.json, opened, () => `Opened ${opened.iban} for ${opened.owner}.\n`);
    }
    case "block":
    case "unblock": {
      const status = action === "block" ? "blocked" : "enabled";
      await accounts.setStatus(required(iban, "the IBAN"), status);
      return print(values.json, { iban, status },
        () => `Account ${iban} ${action === "block" ? "blocked" : "unblocked"}.\n`);
    }
    case "close":
      await accounts.close(required(iban, "the IBAN"));
      return print(values.json, { iban, status: "deleted" }, () => `Account ${iban} closed.\n`);
    case "credit":
    case "debit": {
      const after = await accounts.adjust(required(iban, "the IBAN"), action,
        required(amount, "the AMOUNT"),
        values.text ?? (action === "credit" ? "Test money" : "Test money returned"));
      return print(values.json, after, () => `Booked. ${after.iban}: `
        + `balance ${after.balance} ${after.currency}, `
        + `available ${after.available} ${after.currency}.\n`);
    }
    default:
      throw new OperatorError("account needs one of: list, open, block, unblock, close, credit, "
        + `debit\n${ACCOUNT_USAGE}`);
  }
}
