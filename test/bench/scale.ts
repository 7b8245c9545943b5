/**
 * `npm run bench -- --scale`: two banks side by side in one run, one with a PSU whose account
 * holds 10,000 generated bookings and one whose account holds 1,000,000, each started after its
 * data set was generated (in bulk through the store, as `generate` does). The first and the last
 * page of transactions, the delta list, the balances, the account list and payment creation are
 * measured on both, alternating, twice; the cheaper round of each counts, so a burst of load from
 * elsewhere on the machine cannot decide the ratio. The big account may cost at most 1.5× as much
 * server CPU per request, and a page at most 300 µs of it on either. Requests/s are no cost: the
 * delta list's requests on one consent wait for each other's mark, and the small account's list
 * ends sooner, after which its pages are empty.
 */
import { paymentBody } from "../support/flows.js";
import {
  consentFor, generate, ibansOf, preparePsu, resourceIdOf, startBenchBank, transactionsPath, type BenchBank,
} from "./bank.js";
import { load, type Result } from "./load.js";
import { machine, markdown, writeResults, type Check } from "./report.js";

const COST_MAX = 1.5;
const SMALL = 10_000;
const LARGE = 1_000_000;
const ROUNDS = 2;
const PAGE_CPU_MAX_US = 300;
/**
 * Requests of a round's delta list, counted rather than timed: half the 1,000,000 account's
 * pages, so that each of them answers entries not read yet however fast the bank is (a timed round
 * reached the end and counted empty pages).
 */
const DELTA_REQUESTS = LARGE / 100 / 2;

interface Subject {
  bank: BenchBank; login: string; consentId: string; resourceId: string; iban: string; lastPage: string;
}

async function subject(bank: BenchBank, login: string): Promise<Subject> {
  preparePsu(bank, login, "+4915100003000");
  const [iban = ""] = ibansOf(bank, login);
  const consentId = await consentFor(bank, login, [iban]);
  const resourceId = await resourceIdOf(bank, consentId);
  const first = await bank.tpp.get(transactionsPath(resourceId),
    { "consent-id": consentId, "psu-ip-address": "192.0.2.1" });
  const lastPage = String(first.body?.transactions?._links?.last ?? "");
  return { bank, login, consentId, iban, resourceId, lastPage };
}

type Scenario = (s: Subject, seconds: number, connections: number) => Promise<Result>;

const SCENARIOS: Scenario[] = [
  (s, seconds, connections) => load(`${PAGE}first`, s.bank, transactionsPath(s.resourceId), reading(s, seconds, connections)),
  (s, seconds, connections) => load(`${PAGE}last`, s.bank, s.lastPage, reading(s, seconds, connections)),
  (s, seconds, connections) => load(`${PAGE}delta list`, s.bank,
    `/psd2/v1/accounts/${s.resourceId}/transactions?bookingStatus=booked&deltaList=true`,
    { ...reading(s, seconds, connections), requests: DELTA_REQUESTS }),
  (s, seconds, connections) => load("balances", s.bank, `/psd2/v1/accounts/${s.resourceId}/balances`,
    reading(s, seconds, connections)),
  (s, seconds, connections) => load("account list", s.bank, "/psd2/v1/accounts", reading(s, seconds, connections)),
  (s, seconds, connections) => load("create payment", s.bank, "/psd2/v1/payments/sepa-credit-transfers", {
    seconds, connections, method: "POST", freshRequestId: true,
    body: JSON.stringify(paymentBody({ debtorAccount: s.iban })), headers: { "tpp-redirect-uri": "https://tpp.example/ok" },
  }),
];

function reading(s: Subject, seconds: number, connections: number) {
  return { seconds, connections, headers: { "consent-id": s.consentId, "psu-ip-address": "192.0.2.1" } };
}

const PAGE = "transactions page, ";

const cpu = (r: Result) => r.serverCpuUsPerRequest ?? Infinity;
const better = (a: Result | undefined, b: Result) => (a && cpu(a) <= cpu(b) ? a : b);

/** Cost per request is the server's CPU per request; requests/s and p50 are shown alongside. */
function costChecks(small: Result[], large: Result[]): Check[] {
  return small.map((s, i) => {
    const l = large[i]!;
    const cost = cpu(l) / Math.max(cpu(s), 1);
    return {
      target: `${s.scenario}: cost at ${LARGE.toLocaleString("en")} ≤ ${COST_MAX}× the cost at ${SMALL.toLocaleString("en")}`,
      measured: `${cost.toFixed(2)}× (server CPU ${cpu(s)} → ${cpu(l)} µs a request; requests/s ${s.requestsPerSecond} → ${l.requestsPerSecond}, p50 ${s.p50Ms} → ${l.p50Ms} ms)`,
      met: cost <= COST_MAX,
    };
  });
}

export async function scale(seconds: number, connections: number): Promise<void> {
  const started = Date.now();
  const smallBank = await startBenchBank({ prepare: (cli) => generate(cli, 1, SMALL, 11) });
  let largeBank: BenchBank | undefined;
  try {
    largeBank = await startBenchBank({ prepare: (cli) => generate(cli, 1, LARGE, 11) });
    const setUpSeconds = Math.round((Date.now() - started) / 1000);
    const small = await subject(smallBank, "s11-0000000");
    const large = await subject(largeBank, "s11-0000000");
    const best: { small: Result[]; large: Result[] } = { small: [], large: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // A new consent each round (it replaces the last), whose delta mark starts at the first
      // entry: each round's delta list answers entries its consent has not read yet.
      if (round > 0) {
        for (const s of [small, large]) s.consentId = await consentFor(s.bank, s.login, [s.iban]);
      }
      for (const [i, scenario] of SCENARIOS.entries()) {
        best.small[i] = better(best.small[i], await scenario(small, seconds, connections));
        best.large[i] = better(best.large[i], await scenario(large, seconds, connections));
      }
    }
    const pages = [...best.small, ...best.large].filter((r) => r.scenario.startsWith(PAGE));
    const found = [...costChecks(best.small, best.large), {
      target: `a page of transactions ≤ ${PAGE_CPU_MAX_US} µs of server CPU, first, last, delta, both accounts`,
      measured: pages.map((r) => `${r.scenario} ${r.serverCpuUsPerRequest} µs`).join("; "),
      met: pages.every((r) => (r.serverCpuUsPerRequest ?? Infinity) <= PAGE_CPU_MAX_US),
    }];
    const meta = {
      ...await machine(), engine: smallBank.engine, connections, secondsPerScenario: seconds, rounds: ROUNDS,
      setUpSecondsIncludingGeneration: setUpSeconds,
      restartToReadyMs: `${smallBank.readyMs.restart} (10,000) / ${largeBank.readyMs.restart} (1,000,000)`,
      serverPeakRssMb: `${await smallBank.peakRssMb()} (10,000) / ${await largeBank.peakRssMb()} (1,000,000)`,
    };
    await writeResults(smallBank.engine === "postgres" ? "scale-postgres" : "scale", { meta, ...best, targets: found },
      markdown("Scale: an account with 10,000 and one with 1,000,000 generated bookings, same run", meta,
        [[`${SMALL.toLocaleString("en")} bookings`, best.small], [`${LARGE.toLocaleString("en")} bookings`, best.large]],
        found));
  } finally {
    await largeBank?.close();
    await smallBank.close();
  }
}
