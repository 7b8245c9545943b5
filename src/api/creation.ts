/**
 * The answer to a request creating a payment, consent or signing basket: the creation runs once
 * per X-Request-ID (its idempotency claim and the resource in one transaction), the TPP's
 * subscription to pushed statuses (TPP-Notification-URI, on /v2 Client-Notification-URI) is taken
 * in the same transaction, and the answer, first or replayed, carries the profile's status and
 * headers.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { createIdempotency } from "../domain/kernel/idempotency.js";
import type { NotifiedResource } from "../domain/notification/ports.js";
import type { NotificationSubscriptions } from "../domain/notification/subscriptions.js";
import type { Tx } from "../domain/kernel/ports.js";
import { isV2Path } from "./errors.js";
import {
  readNotificationRequest, V1_NOTIFICATION, V2_NOTIFICATION,
} from "./notification-headers.js";
import type { DeclaredPurposes } from "../domain/dashboard/purposes.js";
import { declaredPurpose, type UriRules } from "./headers.js";
import { requestFingerprint } from "./plugin.js";
import {
  resourcePaths, sendCreated, type Presenters, type ResourcePaths,
} from "./profile.js";
import type { ChosenApproach } from "./sca-approach.js";

export interface CreationRoute {
  idempotency: ReturnType<typeof createIdempotency>;
  redirects: UriRules;
  presenters: Presenters;
  notifications: NotificationSubscriptions;
  purposes: DeclaredPurposes;
}

/** What one creation made, and its answer's body once its paths are known. */
export interface Created {
  resourceId: string;
  authorisationId: string | null;
  present(paths: ResourcePaths): Record<string, unknown>;
}

export interface Creation {
  resourceType: NotifiedResource;
  /** The created id's field in the answer's body. */
  idField: "paymentId" | "consentId" | "basketId";
  selfOf(id: string): string;
  chosen: ChosenApproach;
  /** What else makes two requests the same, beside their URL and body (headers read). */
  fingerprint: Record<string, unknown>;
  create(tx: Tx): Promise<Created>;
}

export async function answerCreation(
  request: FastifyRequest, reply: FastifyReply, route: CreationRoute, creation: Creation,
): Promise<FastifyReply> {
  const tppId = request.tpp.id;
  // Each interface names the headers its own way; their rules are one.
  const names = isV2Path(request.url) ? V2_NOTIFICATION : V1_NOTIFICATION;
  const notify = readNotificationRequest(request.headers, request.tpp.domains, route.redirects,
    names);
  // A basket is no permission of its own: its items are.
  const purpose = creation.resourceType === "signing-basket"
    ? null : declaredPurpose(request.headers);
  const response = await route.idempotency.once({
    tppId, requestId: String(request.headers["x-request-id"]),
    bodyHash: requestFingerprint(request, creation.fingerprint),
  }, async (tx) => {
    const created = await creation.create(tx);
    if (notify.accepted) {
      await route.notifications.subscribe(tx, { ...notify.accepted, tppId,
        resourceId: created.resourceId, resourceType: creation.resourceType,
        resourcePath: creation.selfOf(created.resourceId) });
    }
    if (purpose !== null) await route.purposes.declare(tx, created.resourceId, purpose);
    const paths = resourcePaths(creation.selfOf(created.resourceId), created.authorisationId);
    return { statusCode: route.presenters.createdStatus, body: created.present(paths) };
  });
  void reply.headers(notify.headers);
  return sendCreated(reply, route.presenters, response, creation.idField, creation.selfOf,
    creation.chosen);
}
