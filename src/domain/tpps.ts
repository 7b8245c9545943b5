/**
 * TPPs become known to the bank on their first call; their tenant key is the certificate's
 * organizationIdentifier (NCA id + authorisation number), so a renewed certificate keeps access.
 */
import type { Deps, TppRef } from "./deps.js";

export function createTppRegistry({ store, clock }: Pick<Deps, "store" | "clock">) {
  // Registration is a write; remembering it per process keeps it off the read path.
  const known = new Map<string, string>();
  return {
    async ensure(tpp: TppRef): Promise<void> {
      if (known.get(tpp.id) === tpp.name) return;
      await store.tpps.ensure(store.db, tpp.id, tpp.name, clock.now().toISOString());
      known.set(tpp.id, tpp.name);
    },
  };
}
