/**
 * The permission dashboard's storage (PSR): purposes TPPs declared, and the purge of consents
 * whose history has passed PERMISSION_HISTORY_DAYS.
 */
import type { Tx } from "../kernel/ports.js";
import type { ConsentStatus } from "../consent/model.js";

export interface PermissionPort {
  declarePurpose(tx: Tx, resourceId: string, purpose: string, at: string): Promise<void>;
  /** The declared purposes of those of `resourceIds` that have one. */
  purposes(tx: Tx, resourceIds: readonly string[]): Promise<Map<string, string>>;
  /**
   * Deletes the consents in one of `ended` whose last change is before `before`, with what hangs
   * on them (accounts, counters, authorisations, subscriptions, purpose); returns how many.
   */
  purgeConsents(tx: Tx, ended: readonly ConsentStatus[], before: string): Promise<number>;
}
