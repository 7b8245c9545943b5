/**
 * The interface statistics' measurement on both listeners: which category a request counts in
 * (by its route, known before any hook of the API refuses it), its arrival and its answer, and
 * the flush of each instance's figures into the shared counters.
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../domain/deps.js";
import type { Scheduler } from "../domain/kernel/scheduler.js";
import type { Category } from "../domain/statistics/ports.js";
import {
  createInterfaceRecorder, type InterfaceRecorder, type RequestMark,
} from "../domain/statistics/recorder.js";
import { memoized } from "../lib/memo.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The interface statistics' record of the request's arrival; null where none counts it. */
    interfaceMark: RequestMark | null;
  }
}

/** Often enough that a crash loses little; each flush is a few upserts, not one per request. */
const FLUSH_MS = 10_000;

const PIS = new Set(["payments", "bulk-payments", "periodic-payments", "signing-baskets"]);
const AIS = new Set(["accounts", "card-accounts", "consents"]);

/** A TPP API route's category; null for what is none of them (the API's description, VoP). */
export function apiCategory(route: string): Category | null {
  const [, first = "", second] = /^\/psd2\/v\d+\/([a-z-]+)(?:\/([a-z-]+))?/.exec(route) ?? [];
  if (first === "funds-confirmations" || second === "confirmation-of-funds") return "PIIS";
  if (PIS.has(first)) return "PIS";
  return AIS.has(first) ? "AIS" : null;
}

/** The PSU's pages, without the probes and the statistics themselves. */
function psuCategory(route: string): Category | null {
  return /^\/(health|ready|statistics)/.test(route) ? null : "PSU";
}

function instrument(
  server: FastifyInstance, recorder: InterfaceRecorder,
  categoryOf: (route: string) => Category | null,
): void {
  // On the request itself rather than in a WeakMap: an entry per request there cost a few µs
  // and weighed on every young-generation collection.
  server.decorateRequest("interfaceMark", null);
  // Routes are few and fixed: each one's category is worked out once.
  const categoryOfRoute = memoized(categoryOf);
  server.addHook("onRequest", async (request) => {
    const route = request.routeOptions.url;
    const category = route === undefined ? null : categoryOfRoute(route);
    if (category) request.interfaceMark = recorder.arrived(category);
  });
  // Counted as the answer is handed to the connection, before the client can have it: a flush
  // after the client's answer holds its request. The body's transfer is not in the time.
  server.addHook("onSend", async (request, reply, payload) => {
    const mark = request.interfaceMark;
    if (mark) recorder.answered(mark, reply.statusCode, reply.elapsedTime);
    return payload;
  });
  // Fastify never answers a request whose client left before its body was read (neither onSend
  // nor onResponse runs), and the answer to one left during its handler reaches no one.
  server.addHook("onRequestAbort", async (request) => {
    const mark = request.interfaceMark;
    if (mark) recorder.abandoned(mark);
  });
}

/**
 * Measures both listeners; call before their routes' own hooks. Returns the recorder, whose
 * flush the app runs once more when it closes.
 */
export function measureInterfaces(
  deps: Deps, scheduler: Scheduler, listeners: { api: FastifyInstance; auth: FastifyInstance },
): InterfaceRecorder {
  const recorder = createInterfaceRecorder(deps);
  instrument(listeners.api, recorder, apiCategory);
  instrument(listeners.auth, recorder, psuCategory);
  scheduler.everyHere("interface-statistics", FLUSH_MS, () => recorder.flush());
  return recorder;
}
