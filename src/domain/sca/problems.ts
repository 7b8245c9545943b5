/**
 * Why a step of the PSU's login or decision did not happen, as the pages show it. A login problem
 * never says which factor was wrong, nor whether the login exists.
 */
export const SCA_PROBLEMS = [
  "session_expired", "link_invalid", "link_used", "already_decided", "credentials_invalid",
  "psu_blocked", "psu_blocked_by_bank", "code_invalid", "code_expired", "code_reused",
  "wrong_step", "no_device", "resend_limit", "no_account_selected", "debtor_not_owned",
  "debtor_blocked", "vop_unacknowledged", "psu_not_named", "no_signing_right", "already_signed",
  "in_basket",
  "exemption_spent",
] as const;

export type ScaProblem = (typeof SCA_PROBLEMS)[number];

/** A refusal; a failed factor says how many more failures the PSU has before a block. */
export interface Refusal { problem: ScaProblem; attemptsLeft?: number }

export type StepResult = { ok: true; secret: string } | ({ ok: false } & Refusal);

export const refused = (problem: ScaProblem) => ({ ok: false, problem }) as const;
