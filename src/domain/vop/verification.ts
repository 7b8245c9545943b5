/**
 * Verification of Payee before the PSU authorises a credit transfer (Instant Payments
 * Regulation, EU 2024/886, art. 5c; for every credit transfer, instant or not, in any currency,
 * PSR art. 50 in the Commission's proposal COM(2023) 367): a payee at this bank is checked
 * against the holder's name the core holds, whatever the currency; a payee elsewhere through the
 * scheme port, within VOP_TIMEOUT_MS, where a scheme reaches its bank; else "not possible".
 */
import type { CoreBanking } from "../account-information/core-banking.js";
import type { Tx } from "../kernel/ports.js";
import { matchName } from "../../lib/payee-names.js";
import type { CheckedPayee, PayeeVerificationPort, VopOutcome } from "./ports.js";

export interface PayeeVerificationSettings {
  /** This bank's national bank code: IBANs carrying it are checked here. */
  bankCode: string;
  timeoutMs: number;
}

export interface PayeeVerification {
  /**
   * The outcome for one payee of a credit transfer in any currency; never throws: a failed or
   * late answer, and a payee's bank no scheme reaches, is NOAP.
   */
  verify(tx: Tx, payee: CheckedPayee): Promise<VopOutcome>;
  /** As the responding PSP: the outcome for an account of this bank (else NOAP). */
  respond(tx: Tx, payee: { iban: string; name: string }): Promise<VopOutcome>;
  /**
   * Whether a transfer stays with one holder: the payee account is an enabled account here held
   * by the debtor account's holder. The check protects a payer from paying someone else, which
   * such a transfer cannot do, so the PSU's review says "your own account" and asks no tick.
   */
  ownAccount(tx: Tx, transfer: { debtor: string; creditor: string }): Promise<boolean>;
}

export const NOT_POSSIBLE: VopOutcome = { result: "NOAP", matchedName: null };

/** Whether a German-style IBAN's BBAN starts with the bank code (DEkk BBBBBBBB ...). */
const heldHere = (iban: string, bankCode: string) =>
  iban.startsWith("DE") && iban.slice(4, 4 + bankCode.length) === bankCode;

function withTimeout(answer: Promise<VopOutcome>, ms: number): Promise<VopOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<VopOutcome>((resolve) => {
    timer = setTimeout(() => resolve(NOT_POSSIBLE), ms);
  });
  return Promise.race([answer.catch(() => NOT_POSSIBLE), late])
    .finally(() => clearTimeout(timer));
}

export function createPayeeVerification(
  core: Pick<CoreBanking, "findAccountByIban">, scheme: PayeeVerificationPort,
  settings: PayeeVerificationSettings,
): PayeeVerification {
  async function respond(tx: Tx, payee: { iban: string; name: string }): Promise<VopOutcome> {
    const account = await core.findAccountByIban(tx, payee.iban);
    const held = account?.status === "enabled" ? account.ownerName : null;
    if (!held) return NOT_POSSIBLE;
    const result = matchName(payee.name, held);
    return { result, matchedName: result === "CMTC" ? held : null };
  }
  async function ownAccount(tx: Tx, transfer: { debtor: string; creditor: string }) {
    const debtor = await core.findAccountByIban(tx, transfer.debtor);
    const creditor = debtor && (await core.findAccountByIban(tx, transfer.creditor));
    return debtor !== undefined && creditor?.status === "enabled"
      && creditor.psuId === debtor.psuId;
  }
  return {
    respond, ownAccount,
    async verify(tx, { iban, name, currency }) {
      if (heldHere(iban, settings.bankCode)) return respond(tx, { iban, name });
      if (!scheme.reaches({ iban, currency })) return NOT_POSSIBLE;
      return withTimeout(scheme.verify({ iban, name }), settings.timeoutMs);
    },
  };
}
