/** The message a PSU page shows for each SCA problem (domain/sca/problems.ts). */
import type { ScaProblem } from "../domain/sca/problems.js";
import type { MessageKey } from "./messages/index.js";

const MESSAGES: Readonly<Record<ScaProblem, MessageKey>> = {
  session_expired: "error_session_expired",
  link_invalid: "error_link_invalid",
  link_used: "error_link_used",
  already_decided: "error_already_decided",
  credentials_invalid: "error_credentials_invalid",
  psu_blocked: "error_psu_blocked",
  psu_blocked_by_bank: "error_psu_blocked_by_bank",
  code_invalid: "error_code_invalid",
  code_expired: "error_code_expired",
  code_reused: "error_code_reused",
  wrong_step: "error_wrong_step",
  no_device: "error_no_device",
  resend_limit: "error_resend_limit",
  no_account_selected: "error_no_account_selected",
  debtor_not_owned: "error_debtor_not_owned",
  debtor_blocked: "error_debtor_blocked",
  vop_unacknowledged: "error_vop_unacknowledged",
  psu_not_named: "error_psu_not_named",
  in_basket: "error_in_basket",
  no_signing_right: "error_no_signing_right",
  already_signed: "error_already_signed",
  exemption_spent: "error_exemption_spent",
};

export const problemMessage = (problem: ScaProblem): MessageKey => MESSAGES[problem];

/**
 * What a page says of a refusal: a wrong password or code with the failures left before the
 * block, anything else by its problem's message.
 */
export function refusalError(
  refusal: { problem: ScaProblem; attemptsLeft?: number },
): { error: MessageKey; errorValues?: Record<string, string> } {
  const { problem, attemptsLeft } = refusal;
  if (attemptsLeft === undefined) return { error: MESSAGES[problem] };
  const error = problem === "code_invalid" ? "error_code_attempts" : "error_credentials_attempts";
  return { error, errorValues: { attempts: String(attemptsLeft) } };
}
