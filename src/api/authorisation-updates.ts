/**
 * PUT on an authorisation: the embedded SCA approach's updates (the PSU's password, the chosen
 * method, the code), where the bank offers that approach (SCA_APPROACHES). A bank without it
 * answers 405 SERVICE_INVALID, as Berlin Group does for a service not offered.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  confirmationCodeWrong, formatError, noConfirmationAwaited, redirectApproachOnly,
} from "../domain/kernel/errors.js";
import type { ConfirmationOutcome } from "../domain/sca/confirmation.js";
import type {
  EmbeddedAuthorisations, EmbeddedState, EmbeddedUpdate,
} from "../domain/sca/embedded.js";
import type { Decoupled } from "../domain/sca/decoupled.js";
import type { Authorisation } from "../domain/sca/model.js";
import type { PspRole } from "../tpp/certificate.js";
import { readPsuId } from "./headers.js";
import type { Presenters } from "./profile.js";
import type { ScaApproachRules } from "./sca-approach.js";
import { authorisationUpdateBody, authorisationUpdateResponse, errorResponse } from "./schemas.js";
import type { ReadWire } from "./statement-files.js";

type UpdateBody = {
  psuData?: { password?: string };
  authenticationMethodId?: string;
  scaAuthenticationData?: string;
  confirmationCode?: string;
};

export type UpdateRequest = FastifyRequest<{
  Params: Record<string, string>; Body: UpdateBody;
}>;

export interface AuthorisationUpdates {
  /** The role the path needs; a basket's paths check the TPP's roles themselves. */
  role?: PspRole;
  approaches: ScaApproachRules;
  embedded: EmbeddedAuthorisations;
  decoupled: Decoupled;
  presenters: Presenters;
  /** AUTHORISATION_CONFIRMATION: the TPP's confirmation code on its authorisation. */
  confirmation?: AuthorisationConfirmation;
  /** The interface's refusal body and answer headers (/v2: apiClientMessages); 1.3's if none. */
  wire?: ReadWire;
}

export type AuthorisationConfirmation =
  (authorisation: Authorisation, code: string) => Promise<ConfirmationOutcome>;

/**
 * The TPP sends the confirmation code its redirect carried: `finalised` when the held decision
 * was carried out, `failed` when the bank refused it then; a wrong code changes nothing.
 */
async function confirmed(
  confirmation: AuthorisationConfirmation, authorisation: Authorisation, code: string,
  self: string,
) {
  const outcome = await confirmation(authorisation, code);
  if (!outcome.ok) {
    throw outcome.problem === "code_wrong" ? confirmationCodeWrong() : noConfirmationAwaited();
  }
  const status = self.replace(/\/(cancellation-)?authorisations\/[^/]+$/, "/status");
  const scaStatus = ["finalised", "exempted"].includes(outcome.scaStatus) ? "finalised" : "failed";
  return { scaStatus, _links: { status, scaStatus: self } };
}

/** An authorisation path and how to find the TPP's own authorisation there (404 otherwise). */
export interface UpdatablePath {
  path: string;
  find(request: UpdateRequest): Promise<Authorisation>;
}

/** The one update a body carries; none or several is a FORMAT_ERROR naming the body. */
function readUpdate(
  body: UpdateBody | undefined, headers: FastifyRequest["headers"],
): EmbeddedUpdate {
  const given = [body?.psuData, body?.authenticationMethodId, body?.scaAuthenticationData]
    .filter((v) => v !== undefined);
  const login = readPsuId(headers);
  // The guidelines' updatePsuIdentification: PSU-ID alone, the body empty or absent.
  if (given.length === 0 && login !== null) return { kind: "identify", login };
  if (given.length !== 1) {
    throw formatError("body", "psuData", "Send exactly one of psuData, authenticationMethodId "
      + "and scaAuthenticationData.");
  }
  if (body?.authenticationMethodId !== undefined) {
    return { kind: "method", methodId: body.authenticationMethodId };
  }
  if (body?.scaAuthenticationData !== undefined) {
    return { kind: "code", code: body.scaAuthenticationData };
  }
  const password = body?.psuData?.password;
  if (typeof password !== "string") {
    throw formatError("body", "psuData.password", "psuData needs the PSU's password.");
  }
  return { kind: "password", password, login };
}

/** The state with the guidelines' link for the next step, and the status link. */
function withNextLinks(state: EmbeddedState, self: string) {
  if (state.scaStatus === "psuIdentified") {
    return { ...state, _links: { updatePsuAuthentication: self, scaStatus: self } };
  }
  if (state.scaMethods) {
    return { ...state, _links: { selectAuthenticationMethod: self, scaStatus: self } };
  }
  if (state.challengeData) {
    return { ...state, _links: { authoriseTransaction: self, scaStatus: self } };
  }
  return { ...state, _links: { scaStatus: self } };
}

/**
 * An embedded authorisation started with the PSU's password in its body (the guidelines'
 * startAuthorisationWithPsuAuthentication): the password is applied at once, and the answer is
 * its outcome. Undefined when there is nothing to apply.
 */
export async function passwordAtStart(
  request: { body: unknown; headers: FastifyRequest["headers"] },
  embedded: EmbeddedAuthorisations, authorisationId: string, self: string,
) {
  const body = request.body as UpdateBody | undefined;
  if (body?.psuData === undefined) return undefined;
  const read = () => readUpdate(body, request.headers);
  return withNextLinks(await embedded.start(authorisationId, read), self);
}

/** The operation's description in the published OpenAPI document. */
const UPDATES = "Embedded SCA approach: send exactly one of `psuData.password` (with `PSU-ID`), "
  + "`authenticationMethodId` (one of the answer's `scaMethods`) and `scaAuthenticationData` (the "
  + "code), following the answer's `_links`: `psuAuthenticated` -> `scaMethodSelected` -> "
  + "`finalised`; where an SCA exemption applies, the password alone answers `exempted` (final). "
  + "Decoupled SCA approach: an empty body with `PSU-ID` names the PSU, who then "
  + "confirms in the bank's app; poll `scaStatus`. Redirect authorisations take no update (405), "
  + "but where the bank asks for authorisation confirmation (AUTHORISATION_CONFIRMATION) the "
  + "`confirmationCode` the redirect back carried: `unconfirmed` -> `finalised`.";

export function authorisationUpdateRoutes(
  app: FastifyInstance, paths: UpdatablePath[], options: AuthorisationUpdates,
): void {
  const { confirmation } = options;
  const offered = options.approaches.offered.some((a) => a !== "redirect")
    || confirmation !== undefined;
  const { refusal = errorResponse, onSend } = options.wire ?? {};
  const refusals = { 400: refusal, 401: refusal, 403: refusal, 404: refusal, 405: refusal,
    409: refusal };
  const schema = offered
    ? { description: UPDATES, body: authorisationUpdateBody, response: {
      200: options.presenters.schema(authorisationUpdateResponse), ...refusals } }
    : { response: refusals };
  for (const { path, find } of paths) {
    // The guidelines' update of the PSU's identification may come without a body at all.
    const preValidation = async (request: UpdateRequest) => { request.body ??= {}; };
    app.put(`${path}/:authorisationId`,
      { config: { role: options.role }, schema, preValidation, ...(onSend && { onSend }) },
      async (request: UpdateRequest) => {
        if (!offered) throw redirectApproachOnly();
        const authorisation = await find(request);
        const self = request.url.split("?")[0] ?? "";
        const code = request.body?.confirmationCode;
        if (confirmation && code !== undefined) {
          const answer = await confirmed(confirmation, authorisation, code, self);
          return options.presenters.answer(answer);
        }
        if (authorisation.approach === "decoupled") {
          const state = await options.decoupled.identify(authorisation,
            readPsuId(request.headers));
          return options.presenters.answer({ ...state, _links: { scaStatus: self } });
        }
        const update = readUpdate(request.body, request.headers);
        const state = await options.embedded.update(authorisation.id, update);
        return options.presenters.answer(withNextLinks(state, self));
      });
  }
}
