/**
 * Verification of Party 1.1 (openFinance) for TPPs: before it initiates a payment, a TPP asks
 * whether a name holds an IBAN, one payee at a time or in bulks. Each check is the one a payment's
 * payee gets (verification.ts: this bank's holders, other banks' through the scheme). A bulk is
 * kept with its entries when accepted and answered by a scheduled run, entry by entry, so a
 * restart loses nothing accepted: the next run goes on where the last one stopped.
 */
import { validateIban } from "../../lib/iban.js";
import { isUuid, newUuid } from "../../lib/ids.js";
import type { Deps } from "../deps.js";
import { formatError, resourceUnknown } from "../kernel/errors.js";
import type { Tx } from "../kernel/ports.js";
import type { CheckedPayee, PartyAnswer, VopBulk, VopBulkEntry } from "./ports.js";
import { moveBulk, VOP_BULK_CREATION } from "./transitions.js";

/** One request as the file has it, as far as the bank reads it (the route checks the shape). */
export interface PartyRequest {
  partyAccount: { iban: string; currency?: string };
  party: { name: string };
}

/** The transfer's currency where the request names none: the EPC scheme's. */
const SCHEME_CURRENCY = "EUR";
/** Entries checked and answered per transaction of a bulk's run. */
const CHUNK = 100;

/**
 * The check a request asks for; FORMAT_ERROR at `at` (a bulk entry's path) for a blank name or an
 * IBAN that is none. The bank checks names against IBANs only, as the file allows.
 */
export function readParty(request: PartyRequest, at = ""): CheckedPayee {
  const { iban, currency } = request.partyAccount;
  const checked = validateIban(iban);
  if (!checked.ok) {
    throw formatError("body", `${at}partyAccount.iban`,
      `"${iban}" is not a valid IBAN (${checked.problem}).`);
  }
  const { name } = request.party;
  if (name.trim() === "") {
    throw formatError("body", `${at}party.name`, "This bank checks the party's name: send it.");
  }
  return { iban: checked.iban, name, currency: currency ?? SCHEME_CURRENCY };
}

export interface PartyVerificationSettings {
  /** The most entries one bulk may carry (VOP_BULK_ENTRIES_MAX). */
  bulkEntriesMax: number;
}

export function createPartyVerification(
  deps: Pick<Deps, "store" | "vop" | "clock">, settings: PartyVerificationSettings,
) {
  const { store, vop, clock } = deps;

  async function check(payee: CheckedPayee): Promise<PartyAnswer> {
    const { result, matchedName } = await vop.verify(store.db, payee);
    return { partyNameMatch: result, ...(matchedName === null ? {} : { matchedName }) };
  }

  /** Accepts a bulk in the caller's transaction; FORMAT_ERROR for an entry it cannot check. */
  async function acceptBulk(tx: Tx, tppId: string, requests: readonly PartyRequest[]):
    Promise<VopBulk> {
    if (requests.length > settings.bulkEntriesMax) {
      throw formatError("body", "partyVerificationRequests",
        `A bulk carries at most ${settings.bulkEntriesMax} entries.`);
    }
    requests.forEach((r, i) => readParty(r, `partyVerificationRequests[${i}].`));
    const bulk: VopBulk = { id: newUuid(), tppId, status: VOP_BULK_CREATION.create.to,
      createdAt: clock.now().toISOString() };
    await store.vopBulks.create(tx, bulk, requests);
    return bulk;
  }

  /** The TPP's bulk and its entries; RESOURCE_UNKNOWN for another TPP's or none. */
  async function bulk(tppId: string, id: string) {
    const found = isUuid(id) ? await store.vopBulks.find(store.db, tppId, id) : undefined;
    if (!found) throw resourceUnknown("VOP bulk");
    return found;
  }

  async function answerChunk(bulkId: string): Promise<boolean> {
    const open = await store.vopBulks.open(store.db, bulkId, CHUNK);
    const answers: VopBulkEntry[] = await Promise.all(open.map(async (entry) => ({
      ...entry, answer: await check(readParty(entry.request as PartyRequest)) })));
    await store.transaction((tx) => store.vopBulks.answer(tx, bulkId, answers));
    return open.length > 0;
  }

  /** Answers every unfinished bulk's open entries; returns how many bulks it completed. */
  async function processBulks(): Promise<number> {
    let completed = 0;
    for (const id of await store.vopBulks.unfinished(store.db, 10)) {
      await moveBulk(deps, store.db, id, "start", clock.now().toISOString());
      while (await answerChunk(id));
      if (await moveBulk(deps, store.db, id, "complete", clock.now().toISOString())) completed++;
    }
    return completed;
  }

  return {
    check, acceptBulk, processBulks, bulk,
    verifyParty: (request: PartyRequest) => check(readParty(request)),
    entries: (id: string) => store.vopBulks.entries(store.db, id),
  };
}

export type PartyVerification = ReturnType<typeof createPartyVerification>;
