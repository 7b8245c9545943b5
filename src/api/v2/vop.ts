/**
 * Verification of Party 1.1 (openFinance) at /v2 for payment initiators (PSP_PI): one payee
 * check (`payee-verifications`, answered at once) and bulks of them (`bulk-payee-verifications`,
 * always accepted with 202 and answered by a scheduled run; the file lets the bank ignore
 * Client-Asynchronous-Process-Preferred), read back by their TPP only. The bank checks payees by
 * IBAN and name, as the file allows: the paths for payers and for parties in general, and the
 * other account identifiers, are not offered.
 */
import type { FastifyInstance } from "fastify";
import type { createIdempotency } from "../../domain/kernel/idempotency.js";
import type { PartyRequest, PartyVerification } from "../../domain/vop/parties.js";
import type { VopBulkEntry } from "../../domain/vop/ports.js";
import { requestFingerprint } from "../plugin.js";
import { referenceHeaders, V2_REFUSAL } from "./reference.js";

export const PARTY_PATH = "payee-verifications";
export const BULK_PATH = "bulk-payee-verifications";

export interface V2VopRoutesOptions {
  base: string;
  parties: PartyVerification;
  idempotency: ReturnType<typeof createIdempotency>;
  /** The most entries of a bulk: its body may be larger than other requests'. */
  bulkEntriesMax: number;
  bodyLimit: number;
}

const text = (maxLength: number) => ({ type: "string", maxLength }) as const;
const closed = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ type: "object", properties, required, additionalProperties: false }) as const;

/**
 * The file's fields the bank takes, closed: a party by IBAN and name (the file lets the bank
 * restrict both), agents by BIC. readParty judges the values.
 */
const agent = closed({ financialInstitutionId: closed({
  bicfi: { type: "string", pattern: "^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$" } },
["bicfi"]) }, ["financialInstitutionId"]);
const entryFields = {
  partyAccount: closed({ iban: text(34), currency: { type: "string", pattern: "^[A-Z]{3}$" } },
    ["iban"]),
  party: closed({ name: text(140) }, ["name"]),
  partyAgent: agent,
};
const partyRequest = closed({ ...entryFields, requestingAgent: agent,
  unstructuredRemittanceInformation: { type: "array", items: text(140) } },
["partyAccount", "party"]);
const bulkRequest = closed({
  partyVerificationRequests: { type: "array", minItems: 1, items: closed({
    uetr: { type: "string", format: "uuid" }, ...entryFields,
  }, ["uetr", "partyAccount", "party"]) },
  requestingAgent: agent,
}, ["partyVerificationRequests"]);

const REFUSALS = Object.fromEntries([400, 401, 403, 404, 405, 409].map((s) => [s, V2_REFUSAL]));
const route = (schema: object = {}) => ({ config: { role: "PSP_PI" as const },
  schema: { response: REFUSALS, ...schema },
  onSend: referenceHeaders("Extended Services Verification of Party (VOP)", "1.1") });

type BulkRequest = { partyVerificationRequests: (PartyRequest & { uetr: string })[] };
type ByBulk = { Params: { vopBulkId: string } };

/** An entry with its answer, as the bulk's GET lists it (the request's fields, then the answer). */
const withAnswer = (entry: VopBulkEntry) => ({ ...entry.request as object, ...entry.answer });

export function v2VopRoutes(app: FastifyInstance, options: V2VopRoutesOptions): void {
  const { base, parties, idempotency } = options;
  const bulks = `${base}/${BULK_PATH}`;
  app.post<{ Body: PartyRequest }>(`${base}/${PARTY_PATH}`, route({ body: partyRequest }),
    async (request) => parties.verifyParty(request.body));
  app.post<{ Body: BulkRequest }>(bulks, {
    ...route({ body: bulkRequest }),
    // A bulk's entries: some 200 bytes each, beside the other requests' limit.
    bodyLimit: Math.max(options.bodyLimit, options.bulkEntriesMax * 1_024),
  }, async (request, reply) => {
    const tppId = request.tpp.id;
    const requestId = String(request.headers["x-request-id"]);
    const key = { tppId, requestId, bodyHash: requestFingerprint(request, {}) };
    const answer = await idempotency.once(key, async (tx) => {
      const bulk = await parties.acceptBulk(tx, tppId, request.body.partyVerificationRequests);
      const self = `${bulks}/${bulk.id}`;
      return { statusCode: 202, body: { vopBulkId: bulk.id, vopBulkStatus: bulk.status,
        _links: { self: { href: self }, status: { href: `${self}/status` } } } };
    });
    return reply.code(answer.statusCode).send(answer.body);
  });
  app.get<ByBulk>(`${bulks}/:vopBulkId`, route(), async (request) => {
    const bulk = await parties.bulk(request.tpp.id, request.params.vopBulkId);
    return { vopBulkId: bulk.id, vopBulkStatus: bulk.status,
      partyVerificationRequestsAndResults: (await parties.entries(bulk.id)).map(withAnswer) };
  });
  app.get<ByBulk>(`${bulks}/:vopBulkId/status`, route(), async (request) => {
    const bulk = await parties.bulk(request.tpp.id, request.params.vopBulkId);
    return { vopBulkId: bulk.id, vopBulkStatus: bulk.status };
  });
}
