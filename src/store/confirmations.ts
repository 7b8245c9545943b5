/**
 * Decisions held for the TPP's confirmation code (domain/sca/ports.ts ConfirmationPort). Taking
 * one is a conditional delete, so of two requests with the right code only one decides.
 */
import type { ConfirmationPort } from "../domain/sca/ports.js";
import type { OnStore } from "./handle.js";

export const confirmationRepository: OnStore<ConfirmationPort> = {
  async hold(tx, pending, at) {
    await tx.insertInto("authorisation_confirmations").values({
      authorisation_id: pending.authorisationId, code_hash: pending.codeHash,
      psu_id: pending.psuId, decision: pending.decision, attempts: 0, created_at: at,
    }).execute();
  },

  async find(tx, authorisationId) {
    const row = await tx.selectFrom("authorisation_confirmations").selectAll()
      .where("authorisation_id", "=", authorisationId).executeTakeFirst();
    return row && {
      authorisationId: row.authorisation_id, codeHash: row.code_hash, psuId: row.psu_id,
      decision: row.decision, attempts: Number(row.attempts),
    };
  },

  async take(tx, authorisationId, codeHash) {
    const result = await tx.deleteFrom("authorisation_confirmations")
      .where("authorisation_id", "=", authorisationId).where("code_hash", "=", codeHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async countAttempt(tx, authorisationId) {
    const row = await tx.updateTable("authorisation_confirmations")
      .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
      .where("authorisation_id", "=", authorisationId).returning("attempts").executeTakeFirst();
    return Number(row?.attempts ?? 0);
  },

  async drop(tx, authorisationId) {
    await tx.deleteFrom("authorisation_confirmations")
      .where("authorisation_id", "=", authorisationId).execute();
  },
};
