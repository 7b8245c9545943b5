/**
 * The two TPP interfaces one resource can be created through: NextGenPSD2 1.3 (/v1) and the
 * openFinance API Framework 2.x (/v2). A resource lives in the interface that created it: the
 * other one answers it as unknown, saying where it lives.
 */
import { ofOtherInterface, type Xs2aError } from "./errors.js";

export type ApiInterface = "v1" | "v2";

/** A resource that records its interface: absent for /v1 (everything before the record). */
export interface CreatedThrough { apiVersion?: "v2" }

export const interfaceOf = (resource: CreatedThrough): ApiInterface =>
  resource.apiVersion ?? "v1";

/** What a resource created through `version` records. */
export const createdThrough = (version: ApiInterface): CreatedThrough =>
  (version === "v2" ? { apiVersion: "v2" } : {});

/**
 * Refuses a resource of the other interface with `unknown` (the code and place the interface
 * answers an unknown `what` with), its text naming the interface that created it.
 */
export function requireInterface(
  resource: CreatedThrough, version: ApiInterface, unknown: () => Xs2aError, what: string,
): void {
  const createdOn = interfaceOf(resource);
  if (createdOn !== version) throw ofOtherInterface(unknown(), what, createdOn);
}
