/**
 * TPPs become known to the bank on their first call; their tenant key is the certificate's
 * organizationIdentifier (NCA id + authorisation number), so a renewed certificate keeps access.
 * The bank's stop-list blocks a TPP by that identifier, effective on its next request.
 */
import type { Deps, TppRef } from "./deps.js";
import { Xs2aError } from "./errors.js";

export function createTppRegistry({ store, clock }: Pick<Deps, "store" | "clock">) {
  // Registration is a write; remembering it per process keeps it off the read path. The stop-list
  // is read on every request instead, so that a block on any instance applies everywhere at once.
  const known = new Map<string, string>();
  return {
    async ensure(tpp: TppRef): Promise<void> {
      if (known.get(tpp.id) !== tpp.name) {
        await store.tpps.ensure(store.db, tpp.id, tpp.name, clock.now().toISOString());
        known.set(tpp.id, tpp.name);
      }
      if (await store.tpps.isBlocked(store.db, tpp.id)) {
        throw new Xs2aError("CERTIFICATE_BLOCKED", "certificate",
          "The bank has blocked this TPP's access; contact the bank.");
      }
    },

    list: () => store.tpps.list(store.db),

    /** Answers false for an identifier the bank has never seen. */
    setBlocked: (id: string, blocked: boolean) => store.tpps.setBlocked(store.db, id, blocked),
  };
}

export type TppRegistry = ReturnType<typeof createTppRegistry>;
