/**
 * TPPs become known to the bank on their first call; their tenant key is the certificate's
 * organizationIdentifier (NCA id + authorisation number), so a renewed certificate keeps access.
 * The bank's stop-list blocks a TPP by that identifier, effective on its next request.
 */
import type { StoreDeps, TppRef } from "../deps.js";
import { OperatorError, tppBlocked } from "./errors.js";

const MINUTE_MS = 60_000;

/** `requestsPerMinute`: per TPP across all instances; 0 = unlimited. */
export function createTppRegistry(
  { store, clock }: StoreDeps<"db" | "tpps", "clock">, requestsPerMinute = 0,
) {
  // Registration is a write; remembering it per process keeps it off the read path. The stop-list
  // is checked on every request (from the store's cache while the database is unchanged), so that
  // a block on any instance applies everywhere from the next request.
  const known = new Map<string, string>();
  return {
    async ensure(tpp: TppRef): Promise<void> {
      if (known.get(tpp.id) !== tpp.name) {
        await store.tpps.ensure(store.db, tpp.id, tpp.name, clock.now().toISOString());
        known.set(tpp.id, tpp.name);
      }
      if (await store.tpps.isBlocked(store.db, tpp.id)) {
        throw tppBlocked();
      }
    },

    /** Counts the request; 0 when it may proceed, else the seconds until the TPP's next window. */
    async admit(id: string): Promise<number> {
      if (requestsPerMinute <= 0) return 0;
      const now = clock.now().getTime();
      const windowStart = now - (now % MINUTE_MS);
      const count = await store.tpps.countRequest(
        store.db, id, new Date(windowStart).toISOString());
      return count <= requestsPerMinute
        ? 0 : Math.max(1, Math.ceil((windowStart + MINUTE_MS - now) / 1000));
    },

    /** Windows before the current one count nothing any more. */
    async forgetPastWindows(): Promise<void> {
      const now = clock.now().getTime();
      await store.tpps.forgetRequestsBefore(
        store.db, new Date(now - (now % MINUTE_MS)).toISOString());
    },

    list: () => store.tpps.list(store.db),

    /**
     * By organizationIdentifier (PSD<country>-<NCA>-<id>); a TPP not seen yet is blocked in
     * advance.
     */
    async setBlocked(id: string, blocked: boolean): Promise<void> {
      if (!/^PSD[A-Z]{2}-[A-Z]{2,8}-.+$/.test(id)) {
        throw new OperatorError(
          `A TPP id is an organizationIdentifier like PSDDE-BAFIN-123456, got "${id}".`, "id");
      }
      await store.tpps.setBlocked(store.db, id, blocked, clock.now().toISOString());
    },
  };
}

export type TppRegistry = ReturnType<typeof createTppRegistry>;
