/**
 * An account's transactions as files: to Accept: application/xml a camt.052 report or camt.053
 * statement, to text/plain an MT942 report or MT940 statement, of the whole range at once; the
 * report when the range reaches today, as Berlin Group has the bank choose by the dates. A file
 * of more than DOWNLOAD_THRESHOLD_ENTRIES entries is answered in JSON with only `_links.download`
 * (Berlin Group's large reports), a link the same TPP follows once, within ten minutes, with the
 * consent still valid.
 */
import type {
  FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler,
} from "fastify";
import type { Accounts, Reader } from "../domain/consent/accounts.js";
import type { StatementFile } from "../domain/consent/statement-file.js";
import type { BankAccount } from "../domain/account-information/core-banking.js";
import { resourceUnknown } from "../domain/kernel/errors.js";
import type { Clock } from "../lib/clock.js";
import { newPaymentId } from "../lib/ids.js";
import type { DownloadLinks } from "./downloads.js";
import { mt940, mt942 } from "./mt94x.js";
import type { Presenters } from "./profile.js";
import { errorResponse } from "./schemas.js";
import { CAMT_052, CAMT_053, camtDocument } from "./xml/camt.js";

/** The transaction list is JSON by default; a whole range as a camt document or MT94x. */
export const TRANSACTION_FORMATS = ["application/json", "application/xml", "text/plain"] as const;
export type FileFormat = Exclude<(typeof TRANSACTION_FORMATS)[number], "application/json">;

export const FILE_ANSWERS: Readonly<Record<FileFormat, string>> = {
  "application/xml": `${CAMT_052} BankToCustomerAccountReport when the range reaches today, `
    + `${CAMT_053} BankToCustomerStatement for past days only`,
  "text/plain": "SWIFT MT942 interim transaction report (booked and pending entries) when the "
    + "range reaches today, MT940 customer statement of the booked entries for past days only",
};

/** What a download link answers: the file it was given for, whatever the Accept. */
const DOWNLOADED = {
  "application/xml": "The camt document of a download link (see the transaction list)",
  "text/plain": "The MT940 statement or MT942 report of a download link (see the transaction list)",
};

/**
 * How an interface refuses and signs its reads: /v1's tppMessages, or /v2's apiClientMessages
 * with the openFinance reference headers (v2/reference.ts).
 */
export interface ReadWire { refusal: object; onSend?: onSendHookHandler }

/** The refusals a read answers, in the interface's body. */
export function refusalsOf(wire: ReadWire = { refusal: errorResponse }) {
  const { refusal } = wire;
  return { 400: refusal, 401: refusal, 403: refusal, 404: refusal, 429: refusal };
}

export interface StatementFileOptions {
  base: string;
  accounts: Accounts;
  presenters: Presenters;
  clock: Clock;
  downloads: DownloadLinks;
  downloadThreshold: number;
  /** Absent: /v1's. */
  wire?: ReadWire;
}

type Query = Record<string, string | undefined>;

function send(
  reply: FastifyReply, format: FileFormat, file: StatementFile<BankAccount>, clock: Clock,
) {
  if (format === "text/plain") {
    return reply.type(format).send(file.current ? mt942(file, file.dateTo, clock.now())
      : mt940(file, file.dateTo));
  }
  const message = file.current ? CAMT_052 : CAMT_053;
  return reply.type(format).send(camtDocument(message, file, clock.now(), newPaymentId()));
}

export function statementFiles(options: StatementFileOptions) {
  const { base, accounts, presenters, clock, downloads } = options;

  /** The file of the list's query, or a download link to it when it is too large. */
  async function answer(
    reply: FastifyReply, reader: Reader, accountId: string, query: Query, format: FileFormat,
  ) {
    const file = await accounts.statementFile(reader, accountId, query);
    if (file.booked.length + file.pending.length <= options.downloadThreshold) {
      return send(reply, format, file, clock);
    }
    const token = downloads.sign({ ...reader, accountId }, {
      format, query: { dateFrom: file.dateFrom, dateTo: file.dateTo,
        bookingStatus: query.bookingStatus ?? "booked" },
    });
    const { iban, currency } = file.account;
    return presenters.answer({
      account: { iban, currency },
      _links: { download: `${base}/accounts/${accountId}/transactions/download/${token}` },
    });
  }

  /** The download link's GET: the file it names, for the TPP and consent it was given to. */
  function downloadRoute(app: FastifyInstance, readerOf: (request: FastifyRequest) => Reader) {
    const route = {
      config: { role: "PSP_AI", otherAnswers: DOWNLOADED },
      schema: { response: refusalsOf(options.wire) }, onSend: options.wire?.onSend,
    } as const;
    type Download = { Params: { accountId: string; token: string } };
    app.get<Download>(`${base}/accounts/:accountId/transactions/download/:token`, route,
      async (request, reply) => {
        const reader = readerOf(request);
        const { accountId, token } = request.params;
        const claims = downloads.verify(token, { ...reader, accountId });
        if (!claims) throw resourceUnknown("download");
        const file = await accounts.statementFile(reader, accountId, claims.query, claims);
        return send(reply, claims.format, file, clock);
      });
  }

  return { answer, downloadRoute };
}
