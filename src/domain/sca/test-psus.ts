/**
 * The sandbox's test PSUs for a TPP's automated tests (README, TPP test PSUs): each goes through
 * the same steps on every run, so none of the bank's exemptions, which depend on what the PSU
 * did before (art. 10a's renewal, art. 16's count since the last SCA), applies to them; one of
 * them instead is always exempted. Never outside sandbox mode.
 */
import type { Deps } from "../deps.js";
import type { Psu, ScaExemption } from "./model.js";

/** A test PSU: its code is always 123456 (in sandbox mode). */
export const usesFixedCode = (psu: Pick<Psu, "sandbox">) =>
  psu.sandbox === "fixed_code" || psu.sandbox === "exempted";

/**
 * The exemption a test PSU takes where one could apply: always one ("exempted"), or never
 * (the others). Undefined for every other PSU, and outside sandbox mode: the bank's rules decide.
 */
export function testPsuExemption(
  { settings }: Pick<Deps, "settings">, psu: Pick<Psu, "sandbox">,
): ScaExemption | null | undefined {
  if (settings.sandbox !== true || !usesFixedCode(psu)) return undefined;
  return psu.sandbox === "exempted" ? "sandbox" : null;
}
