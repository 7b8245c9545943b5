import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { endpointFigures } from "../src/admin.js";
import { parseExposition, type ParsedSample } from "../src/lib/metrics.js";
import { createPayment } from "./support/flows.js";
import { startBank, type TestBank } from "./support/start-app.js";

let bank: TestBank;
before(async () => { bank = await startBank(); });
after(async () => { await bank.close(); });

async function scrape(): Promise<{ text: string; samples: ParsedSample[]; contentType: string | null }> {
  const response = await fetch(`${bank.adminUrl}/metrics`);
  assert.equal(response.status, 200);
  const text = await response.text();
  return { text, samples: parseExposition(text), contentType: response.headers.get("content-type") };
}

function value(samples: ParsedSample[], name: string, labels: Record<string, string>): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

test("metrics count requests per operation and status, with latency, on the admin listener only", async () => {
  await createPayment(bank.tpp);
  await bank.tpp.get("/psd2/v1/payments/00000000000000000000000000000000/status");
  const { samples, contentType } = await scrape();
  assert.match(contentType ?? "", /^text\/plain; version=0\.0\.4/);
  const created = samples.filter((s) => s.name === "psd2_http_requests_total" && s.labels.listener === "api"
    && /^POST \/psd2\/v1\/payments\/:\w+$/.test(s.labels.operation ?? "") && /^2\d\d$/.test(s.labels.status ?? ""));
  assert.deepEqual(created.map((s) => s.value), [1], "one successful payment initiation, labelled by route pattern");
  const unknown = { listener: "api", operation: "GET /psd2/v1/payments/:paymentId/status", status: "404" };
  assert.equal(value(samples, "psd2_http_requests_total", unknown), 1);
  assert.equal(value(samples, "psd2_http_request_duration_seconds_count", unknown), 1);
  assert.equal(value(samples, "psd2_http_request_duration_seconds_bucket", { ...unknown, le: "+Inf" }), 1);
  const onApi = await bank.tpp.get("/metrics");
  assert.equal(onApi.status, 404, "the TPP listener does not serve the operator's metrics");
});

test("metrics show payments by status and ledger totals in which debits equal credits", async () => {
  const { samples } = await scrape();
  assert.ok((value(samples, "psd2_payments", { status: "RCVD" }) ?? 0) >= 1);
  const sum = (name: string) => samples.filter((s) => s.name === name && s.labels.currency === "EUR")
    .reduce((total, s) => total + s.value, 0);
  assert.ok(sum("psd2_ledger_credits_posted_minor") > 0, "the demo data seeded money");
  assert.equal(sum("psd2_ledger_debits_posted_minor"), sum("psd2_ledger_credits_posted_minor"));
});

test("availability figures per endpoint: 5xx answers count against availability, 4xx do not", () => {
  const op = (status: string, n: number): ParsedSample[] => [
    { name: "psd2_http_requests_total", labels: { listener: "api", operation: "GET /a", status }, value: n },
    { name: "psd2_http_request_duration_seconds_sum", labels: { listener: "api", operation: "GET /a", status },
      value: n * 0.004 },
    { name: "psd2_http_request_duration_seconds_bucket", labels: { listener: "api", operation: "GET /a", status, le: "0.005" },
      value: n },
  ];
  const figures = endpointFigures([...op("200", 90), ...op("404", 8), ...op("503", 2),
    { name: "psd2_http_requests_total", labels: { listener: "auth", operation: "GET /a", status: "500" }, value: 50 }]);
  assert.equal(figures.length, 1);
  const [a] = figures;
  assert.equal(a?.requests, 100);
  assert.equal(a?.availabilityPercent, 98);
  assert.ok(Math.abs((a?.meanMs ?? 0) - 4) < 1e-9);
  assert.equal(a?.p95Ms, 5);
});

test("the exposition format round-trips label values with quotes, backslashes and newlines", () => {
  const line = 'm{a="x\\"y",b="c\\\\d",c="e\\nf"} 3';
  assert.deepEqual(parseExposition(line), [{ name: "m", labels: { a: 'x"y', b: "c\\d", c: "e\nf" }, value: 3 }]);
});
