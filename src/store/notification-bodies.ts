/**
 * The body of a queued notification, in the form its subscription took: NextGenPSD2 1.3's for a
 * resource created on /v1, openFinance PUSH 2.4's pushResourceStatus request body for one created
 * on /v2 (Client-Notification-URI; schemas/openfinance/, the PUSH file). A resource kind plugs
 * into the 2.4 form with its entry in PUSH_2_4_ID.
 */
import type { NotificationForm, NotifiedResource } from "../domain/notification/ports.js";

export interface PushTarget {
  resourceId: string;
  resourceType: NotifiedResource;
  content: string;
  form: NotificationForm;
  resourcePath: string | null;
}

/** One change as pushed: a resource's status, or an authorisation's SCA status. */
export type PushedChange =
  | { transactionStatus: string }
  | { consentStatus: string }
  | { authorisationId: string; scaStatus: string; cancellation: boolean };

/** The attribute that names the resource in a 2.4 body, by resource kind. */
const PUSH_2_4_ID: Record<NotifiedResource, "paymentId" | "consentId" | "basketId"> = {
  payment: "paymentId",
  consent: "consentId",
  "signing-basket": "basketId",
};

/** Content LAST (2.4 only): the status is read from `_links.status` (the file's lean body). */
const lean = (target: PushTarget) => target.content.split(",").includes("LAST");

function push24(target: PushTarget, change: PushedChange): Record<string, unknown> {
  const named = { [PUSH_2_4_ID[target.resourceType]]: target.resourceId };
  if ("scaStatus" in change) {
    // A cancellation's authorisation is named cancellationId, as the file asks.
    const { authorisationId, scaStatus, cancellation } = change;
    return { ...named, [cancellation ? "cancellationId" : "authorisationId"]: authorisationId,
      scaStatus };
  }
  if (lean(target)) {
    return { ...named, _links: { status: { href: `${target.resourcePath}/status` } } };
  }
  return { ...named, ...change };
}

function push13(target: PushTarget, change: PushedChange, id: string, at: string) {
  const fields = "scaStatus" in change
    ? { authorisationId: change.authorisationId, scaStatus: change.scaStatus } : change;
  return { notificationId: id, resourceType: target.resourceType, resourceId: target.resourceId,
    ...fields, time: at };
}

/** The JSON body of notification `id` of `change`, queued at `at`. */
export function pushBody(target: PushTarget, change: PushedChange, id: string, at: string):
  string {
  return JSON.stringify(target.form === "2.4"
    ? push24(target, change) : push13(target, change, id, at));
}
