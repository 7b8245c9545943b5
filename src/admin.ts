/**
 * The operator's side: Prometheus metrics of both listeners, served on a separate admin port that
 * is never exposed to TPPs or PSUs. Request counts and latency are recorded per operation (the
 * route pattern, so ids do not explode the label set); statuses and ledger totals are read from
 * the database when scraped, so every instance reports the same shared figures.
 */
import type { FastifyInstance } from "fastify";
import { memoized } from "./lib/memo.js";
import { MetricsRegistry, type ParsedSample } from "./lib/metrics.js";
import type { Store } from "./store/db.js";

export type Listener = "api" | "auth";

export interface Metrics {
  registry: MetricsRegistry;
  /** Records every response of a listener. */
  instrument(server: FastifyInstance, listener: Listener): void;
}

/** The outbox of pushed statuses, read from the database so every instance reports the same. */
function notificationGauges(registry: MetricsRegistry, store: Store): void {
  const counts = () => store.notifications.counts(store.db);
  registry.gauge("psd2_notifications", "Status notifications to TPPs: queued, delivered, failed "
    + "(given up after the retry period).", async () => {
    const c = await counts();
    return (["queued", "delivered", "failed"] as const)
      .map((state) => ({ labels: { state }, value: c[state] }));
  });
  registry.gauge("psd2_notification_delivery_lag_seconds",
    "Age of the oldest notification not yet delivered (0 when none waits).", async () => {
      const { oldestQueuedAt } = await counts();
      const lag = oldestQueuedAt === null ? 0 : (Date.now() - Date.parse(oldestQueuedAt)) / 1000;
      return [{ labels: {}, value: Math.max(0, lag) }];
    });
}

export function createMetrics(store: Store): Metrics {
  const registry = new MetricsRegistry();
  const requests = registry.counter("psd2_http_requests_total",
    "Requests answered, by listener, operation and status.");
  const latency = registry.histogram("psd2_http_request_duration_seconds",
    "Time from request to response, by listener, operation and status.");
  const byStatus = (read: typeof store.stats.payments) => async () =>
    (await read(store.db)).map(({ status, count }) => ({ labels: { status }, value: count }));
  registry.gauge("psd2_payments", "Payments by transactionStatus.", byStatus(store.stats.payments));
  registry.gauge("psd2_consents", "Consents by consentStatus.", byStatus(store.stats.consents));
  registry.gauge("psd2_sca_authorisations", "SCA outcomes: authorisations by scaStatus.",
    byStatus(store.stats.authorisations));
  const posted = (field: "debitsMinor" | "creditsMinor") => async () =>
    (await store.stats.ledgerTotals(store.db))
      .map((t) => ({ labels: { kind: t.kind, currency: t.currency }, value: Number(t[field]) }));
  registry.gauge("psd2_ledger_debits_posted_minor",
    "Posted debits in minor units, by account kind and currency.", posted("debitsMinor"));
  registry.gauge("psd2_ledger_credits_posted_minor",
    "Posted credits in minor units, by account kind and currency.", posted("creditsMinor"));
  notificationGauges(registry, store);

  return {
    registry,
    instrument(server, listener) {
      // One labels object per status and operation: the registry keeps its series key.
      const labelsOf = memoized((key: string) => {
        const space = key.indexOf(" ");
        const status = key.slice(0, space);
        return Object.freeze({ listener, operation: key.slice(space + 1), status });
      });
      server.addHook("onResponse", async (request, reply) => {
        const route = request.routeOptions.url;
        const operation = route ? `${request.method} ${route}` : "unmatched";
        const labels = labelsOf(`${reply.statusCode} ${operation}`);
        requests.inc(labels);
        latency.observe(labels, reply.elapsedTime / 1000);
      });
    },
  };
}

/**
 * The admin listener's routes; it speaks plain HTTP, so bind it to localhost or a management
 * network.
 */
export function adminRoutes(admin: FastifyInstance, metrics: Metrics): void {
  admin.get("/metrics", async (_request, reply) => {
    void reply.type("text/plain; version=0.0.4; charset=utf-8");
    return metrics.registry.render();
  });
}

export interface EndpointFigures {
  operation: string;
  requests: number;
  /** Share of requests not failed by the bank (5xx), in percent: the EBA's availability figure. */
  availabilityPercent: number;
  meanMs: number;
  /** Upper bound of the histogram bucket holding the 95th percentile. */
  p95Ms: number;
}

/**
 * The figures a dedicated interface publishes per endpoint (EBA/GL/2018/07 guideline 2), computed
 * from a scrape of the API listener's metrics. Over a day they are the same sums over that
 * day's increase, which is what Prometheus' increase() gives.
 */
export function endpointFigures(samples: ParsedSample[]): EndpointFigures[] {
  type Totals = { requests: number; failed: number; sum: number; buckets: Map<number, number> };
  const byOperation = new Map<string, Totals>();
  for (const s of samples) {
    if (s.labels.listener !== "api" || s.labels.operation === undefined) continue;
    const entry: Totals = byOperation.get(s.labels.operation)
      ?? { requests: 0, failed: 0, sum: 0, buckets: new Map() };
    byOperation.set(s.labels.operation, entry);
    if (s.name === "psd2_http_requests_total") {
      entry.requests += s.value;
      if ((s.labels.status ?? "").startsWith("5")) entry.failed += s.value;
    } else if (s.name === "psd2_http_request_duration_seconds_sum") {
      entry.sum += s.value;
    } else if (s.name === "psd2_http_request_duration_seconds_bucket" && s.labels.le !== "+Inf") {
      const bound = Number(s.labels.le);
      entry.buckets.set(bound, (entry.buckets.get(bound) ?? 0) + s.value);
    }
  }
  return [...byOperation].filter(([, e]) => e.requests > 0).map(([operation, e]) => {
    const bounds = [...e.buckets.keys()].sort((a, b) => a - b);
    const p95 = bounds.find((b) => (e.buckets.get(b) ?? 0) >= e.requests * 0.95)
      ?? Number.POSITIVE_INFINITY;
    return {
      operation, requests: e.requests,
      availabilityPercent: (100 * (e.requests - e.failed)) / e.requests,
      meanMs: (1000 * e.sum) / e.requests, p95Ms: p95 * 1000,
    };
  }).sort((a, b) => a.operation.localeCompare(b.operation));
}
