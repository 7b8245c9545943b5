/**
 * Why an embedded update was refused, as the Berlin Group error the TPP receives: the same
 * problems the bank's pages show the PSU (problems.ts), worded for the TPP that relays them. As
 * on the pages, a failed factor never says which one was wrong, nor whether the login exists.
 */
import {
  psuCredentialsInvalid, resourceBlocked, scaInvalid, scaMethodUnknown, type Xs2aError,
} from "../kernel/errors.js";
import type { Refusal, ScaProblem } from "./problems.js";

const CREDENTIALS = "The login details are not correct.";

const TEXTS: Record<ScaProblem, [(text: string) => Xs2aError, string]> = {
  credentials_invalid: [psuCredentialsInvalid, CREDENTIALS],
  code_invalid: [psuCredentialsInvalid, CREDENTIALS],
  psu_blocked: [psuCredentialsInvalid, "Too many failed attempts: the PSU's access is blocked "
    + "for a while, on every channel."],
  psu_blocked_by_bank: [psuCredentialsInvalid,
    "The bank has blocked this PSU's access; the PSU should contact the bank."],
  psu_not_named: [psuCredentialsInvalid, "Only the PSU named in PSU-ID may authorise this."],
  debtor_not_owned: [psuCredentialsInvalid,
    "This PSU may not authorise payments from the debtor account."],
  debtor_blocked: [psuCredentialsInvalid, "The debtor account is blocked."],
  no_signing_right: [psuCredentialsInvalid,
    "This PSU may see the account but has no right to sign for it."],
  already_signed: [scaInvalid, "This PSU has signed already; another user of the company must "
    + "sign (start a new authorisation for them)."],
  no_device: [scaMethodUnknown, "The PSU has no SCA method (no device) at this bank."],
  code_reused: [scaInvalid, "This code was just used; wait for the authenticator's next one."],
  code_expired: [scaInvalid, "The code has expired; start a new authorisation."],
  resend_limit: [scaInvalid, "No more codes may be sent for this authorisation."],
  session_expired: [scaInvalid,
    "The authorisation was idle too long; send the PSU's password again."],
  wrong_step: [scaInvalid, "The authorisation expects another step now: follow the _links of "
    + "its last answer (password, then method, then code)."],
  already_decided: [scaInvalid, "The authorisation is over: the payment or consent no longer "
    + "awaits the PSU."],
  link_invalid: [scaInvalid, "This authorisation does not use the embedded SCA approach."],
  link_used: [scaInvalid, "This authorisation is over."],
  no_account_selected: [scaInvalid, "The consent names no account of this PSU."],
  vop_unacknowledged: [scaInvalid, "The payee's name did not match."],
  in_basket: [resourceBlocked, "The payment or consent is in a signing basket: authorise the "
    + "basket instead."],
  exemption_spent: [scaInvalid, "The exemption from the second factor no longer holds (a limit "
    + "since the PSU's last SCA was reached): start a new authorisation."],
};

export function embeddedRefusal(refusal: Refusal): Xs2aError {
  const [error, text] = TEXTS[refusal.problem];
  const left = refusal.attemptsLeft;
  return error(left === undefined ? text
    : `${text} ${left} more failed ${left === 1 ? "attempt blocks" : "attempts block"} the PSU.`);
}
