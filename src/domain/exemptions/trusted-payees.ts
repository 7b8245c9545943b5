/**
 * The PSU's trusted payees (RTS art. 13), kept on its dashboard: adding or removing one is an
 * SCA of its own, the dashboard's second factor again with a code bound to exactly this change
 * (RTS art. 5), so that someone who finds the dashboard open cannot make a payee trusted.
 * First the change is asked (an SMS device gets its code), then confirmed with the code.
 */
import { validateIban } from "../../lib/iban.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import { createScaFactors, sha256 } from "../sca/factors.js";
import type { PsuSession } from "../sca/model.js";
import type { SmsSubject, TrustedPayee } from "../sca/ports.js";
import { refused, type StepResult } from "../sca/problems.js";
import { psuAndDevice } from "../sca/session.js";

/** A change of the list, as the PSU asks for it. */
export interface PayeeChange { action: "add" | "remove"; iban: string; name: string }

/** What a session's work gets: its PSU, and the session (its id keys the change's code). */
type AsPsu = (secret: string | undefined,
  work: (tx: Tx, psuId: string, session: PsuSession) => Promise<StepResult>) =>
  Promise<StepResult>;

const NAME_MAX = 70;

/** The change with its IBAN normalised, or null when the IBAN or the name is not valid. */
export function readChange(change: PayeeChange): PayeeChange | null {
  const checked = validateIban(change.iban);
  const name = change.name.trim();
  if (!checked.ok) return null;
  if (change.action === "add" && (name === "" || name.length > NAME_MAX)) return null;
  return { ...change, iban: checked.iban, name };
}

/** The code's dynamic link: this PSU, this change, this payee. */
const bindingOf = (psuId: string, c: PayeeChange) =>
  sha256(`trusted-payee|${c.action}|${psuId}|${c.iban}|${c.name}`);

const subjectOf = (c: PayeeChange): SmsSubject => ({
  kind: c.action === "add" ? "trustedPayeeAdd" : "trustedPayeeRemove", payee: c.name, iban: c.iban,
});

export function createTrustedPayees(deps: Deps, asPsu: AsPsu) {
  const factors = createScaFactors(deps);
  const { store } = deps;

  /** Asks for a change: the SMS device of the dashboard's login gets a code bound to it. */
  function ask(secret: string | undefined, change: PayeeChange): Promise<StepResult> {
    return asPsu(secret, async (tx, psuId, session) => {
      const target = await psuAndDevice(deps, tx, session);
      if (!target) return refused("wrong_step");
      const ok = { ok: true, secret: secret ?? "" } as const;
      if (target.device.kind !== "sms") return ok;
      const sent = await factors.sendCode(tx, session.id, target, bindingOf(psuId, change),
        (code) => deps.smsTexts.text(session.lang, subjectOf(change), code));
      return sent === "ok" ? ok : refused(sent);
    });
  }

  /** The change, once the code bound to it is right; a wrong code counts as a failed factor. */
  function confirm(secret: string | undefined, change: PayeeChange, code: string) {
    return asPsu(secret, async (tx, psuId, session) => {
      const target = await psuAndDevice(deps, tx, session);
      if (!target) return refused("wrong_step");
      const verified = await factors.verifyCode(tx, session.id, bindingOf(psuId, change),
        target, code);
      if (verified !== "ok") return { ok: false, ...verified } as const;
      if (change.action === "remove") {
        if (!(await store.exemptions.distrust(tx, psuId, change.iban))) {
          return refused("wrong_step");
        }
      } else {
        const payee: TrustedPayee = {
          iban: change.iban, name: change.name, createdAt: deps.clock.now().toISOString(),
        };
        await store.exemptions.trust(tx, psuId, payee);
      }
      return { ok: true, secret: secret ?? "" } as const;
    });
  }

  return { ask, confirm };
}
