/**
 * A signature (multi-level SCA) as part of a status change's compare-and-set: the row changes
 * only if it still has the signatures the caller read, and then has one more. Payments, consents
 * and signing baskets count them alike.
 */
import type { UpdateQueryBuilder, UpdateResult } from "kysely";
import type { Database } from "./schema.js";

type Signed = "payments" | "consents" | "signing_baskets";

export function withSignature<T extends Signed>(
  update: UpdateQueryBuilder<Database, T, T, UpdateResult>, before: number | undefined,
): UpdateQueryBuilder<Database, T, T, UpdateResult> {
  if (before === undefined) return update;
  const counted = update as unknown as UpdateQueryBuilder<Database, Signed, Signed, UpdateResult>;
  return counted.set({ signatures: before + 1 }).where("signatures", "=", before) as never;
}
