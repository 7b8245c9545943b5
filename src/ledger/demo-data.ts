/**
 * Deterministic demo data for the sandbox: PSUs with devices, EUR accounts with valid IBANs, and
 * 13 months of realistic booked history (salary, rent, card payments, transfers), generated from a
 * seed, booked through the same book-keeping as live payments and inserted in bulk.
 */
import type { SandboxBehaviour, ScaDevice } from "../domain/sca/model.js";
import { addDays, dateInZone, type Clock } from "../lib/clock.js";
import { makeIban } from "../lib/iban.js";
import { newUuid } from "../lib/ids.js";
import { cardRepository } from "../store/cards.js";
import { pendingRepository, type PendingRecord } from "../store/statements.js";
import type { Store, Tx } from "../store/db.js";
import type { LedgerAccountRecord } from "../store/ledger.js";
import { availableBalance, newLedgerAccount } from "./book.js";
import { DemoCardHistory } from "./demo-cards.js";
import { HistoryWriter, type Counterparty, type DemoCard } from "./history-writer.js";

export type { DemoCard };

export const DEMO_BANK_CODE = "50010000";

export type DemoDevice = { kind: "totp"; secret: string } | { kind: "sms"; phone: string };

export interface DemoPsu {
  login: string;
  password: string;
  name: string;
  device: DemoDevice;
  /** More devices: after the password the page asks which one to use. */
  otherDevices?: DemoDevice[];
  /**
   * A sandbox scenario: the PSU's login is blocked, its accounts never hold any money, its
   * device is not registered (the PSU has none), or it has several to choose from.
   */
  scenario?: "blocked" | "empty_accounts" | "no_device" | "device_choice" | "app_rejects"
    | "app_silent";
  /** A test PSU for TPP automation: its code is always 123456 (sandbox mode only). */
  fixedCode?: true;
  /** A test PSU whose password alone authorises: its SCA is always exempted (sandbox only). */
  exempted?: true;
  accounts: DemoAccount[];
}

export interface DemoAccount {
  accountNumber: string; product: string; openingMinor: bigint; salaryMinor: bigint;
  card?: DemoCard;
  /** What a TPP developer can try with it, for docs/tpp-guide.md and the start banner. */
  hint?: string;
  /** A company's account: how many of its users must sign (multi-level SCA); absent: one. */
  signaturesRequired?: number;
}

/**
 * A company customer (PSU-Corporate-ID): its users are PSUs with their own login and device,
 * without accounts of their own, who may sign for the company or only see its accounts.
 */
export interface DemoCorporate {
  corporateId: string;
  name: string;
  users: (DemoPsu & { maySign: boolean })[];
  accounts: DemoAccount[];
}


/** docs/tpp-guide.md's tables and the start banner are rendered from these (demo-guide.ts). */
export const DEMO_PSUS: readonly DemoPsu[] = [
  {
    login: "alice", password: "alice-demo", name: "Alice Schmidt",
    device: { kind: "totp", secret: "JBSWY3DPEHPK3PXP" },
    accounts: [
      {
        accountNumber: "1000000001", product: "Girokonto",
        openingMinor: 250_000n, salaryMinor: 385_000n,
        card: { pan: "5254120000013241", product: "Mastercard Gold", creditLimitMinor: 500_000n },
      },
      {
        accountNumber: "1000000002", product: "Tagesgeld",
        openingMinor: 1_250_000n, salaryMinor: 0n,
      },
    ],
  },
  {
    login: "bob", password: "bob-demo", name: "Bob Meyer",
    device: { kind: "sms", phone: "+4915100000002" },
    accounts: [
      {
        accountNumber: "2000000001", product: "Girokonto",
        openingMinor: 15_000n, salaryMinor: 95_000n,
        hint: "little money: try an insufficient-funds payment",
        card: { pan: "4921810000027714", product: "Visa Classic", creditLimitMinor: 100_000n },
      },
    ],
  },
  {
    login: "carol", password: "carol-demo", name: "Carol Weber",
    device: { kind: "totp", secret: "KRSXG5CTMVRXEZLU" },
    accounts: [
      {
        accountNumber: "3000000001", product: "Girokonto",
        openingMinor: 480_000n, salaryMinor: 520_000n,
        card: {
          pan: "5254120000035541", product: "Mastercard Platinum",
          creditLimitMinor: 1_000_000n,
        },
      },
      {
        accountNumber: "3000000002", product: "Tagesgeld",
        openingMinor: 2_000_000n, salaryMinor: 0n,
      },
      {
        accountNumber: "3000000003", product: "Gemeinschaftskonto",
        openingMinor: 90_000n, salaryMinor: 0n,
      },
    ],
  },
  // Scenario PSUs: every TPP request meets the same unhappy path, never one by chance.
  {
    login: "dora", password: "dora-demo", name: "Dora Leer", scenario: "empty_accounts",
    device: { kind: "totp", secret: "MFRGGZDFMZTWQ2LK" },
    accounts: [
      { accountNumber: "4000000001", product: "Girokonto", openingMinor: 10_000n, salaryMinor: 0n },
    ],
  },
  {
    login: "erik", password: "erik-demo", name: "Erik Gesperrt", scenario: "blocked",
    device: { kind: "totp", secret: "NBSWY3DPMFRGGZDF" },
    accounts: [
      {
        accountNumber: "5000000001", product: "Girokonto",
        openingMinor: 100_000n, salaryMinor: 0n,
      },
    ],
  },
  {
    login: "finn", password: "finn-demo", name: "Finn Ohnegeraet", scenario: "no_device",
    device: { kind: "sms", phone: "+4915100000006" },
    accounts: [
      {
        accountNumber: "6000000001", product: "Girokonto",
        openingMinor: 100_000n, salaryMinor: 0n,
      },
    ],
  },
  {
    login: "gina", password: "gina-demo", name: "Gina Zweigeraet", scenario: "device_choice",
    device: { kind: "totp", secret: "GEZDGNBVGY3TQOJQ" },
    otherDevices: [{ kind: "sms", phone: "+4915100000007" }],
    accounts: [
      {
        accountNumber: "7000000001", product: "Girokonto",
        openingMinor: 300_000n, salaryMinor: 0n,
      },
    ],
  },
  // The decoupled approach's unhappy paths: the bank app rejects at once, or never answers.
  {
    login: "hanna", password: "hanna-demo", name: "Hanna Ablehnend", scenario: "app_rejects",
    device: { kind: "totp", secret: "MZXW6YTBOI3DEMRQ" },
    accounts: [testAccount("9000000001")],
  },
  {
    login: "ivo", password: "ivo-demo", name: "Ivo Stumm", scenario: "app_silent",
    device: { kind: "totp", secret: "GIZDGNBVGY3TQOJR" },
    accounts: [testAccount("9100000001")],
  },
  // TPP test automation: one password, the code always 123456; exempted, one or two devices.
  {
    login: "tester0", password: "sandbox-test", name: "Theo Ausnahme", exempted: true,
    fixedCode: true, device: { kind: "sms", phone: "+4915100000010" },
    accounts: [testAccount("8000000001")],
  },
  {
    login: "tester1", password: "sandbox-test", name: "Tara Eingeraet", fixedCode: true,
    device: { kind: "sms", phone: "+4915100000011" },
    accounts: [testAccount("8100000001")],
  },
  {
    login: "tester2", password: "sandbox-test", name: "Tom Zweigeraet", fixedCode: true,
    device: { kind: "sms", phone: "+4915100000012" },
    otherDevices: [{ kind: "totp", secret: "KVKFKRCPNZQUYMLX" }],
    accounts: [testAccount("8200000001")],
  },
];

/** docs/tpp-guide.md's corporate table and start banner are rendered from these (demo-guide). */
export const DEMO_CORPORATES: readonly DemoCorporate[] = [
  {
    corporateId: "nordwind", name: "Nordwind Logistik GmbH",
    users: [
      corporateUser("jana", "Jana Brandt", { kind: "totp", secret: "ONSWG4TFOQYTEMZU" }, true),
      corporateUser("karl", "Karl Brandt", { kind: "sms", phone: "+4915100000020" }, true),
      corporateUser("lea", "Lea Vogt", { kind: "totp", secret: "OBQXG43XN5ZGIMJS" }, false),
    ],
    accounts: [{
      accountNumber: "8500000001", product: "Geschaeftskonto", openingMinor: 5_000_000n,
      salaryMinor: 0n, signaturesRequired: 2,
      hint: "needs two signatures",
    }],
  },
  {
    corporateId: "sommer", name: "Baeckerei Sommer e.K.",
    users: [
      corporateUser("mia", "Mia Sommer", { kind: "totp", secret: "MNXXE4DPOJQXIZJR" }, true),
    ],
    accounts: [{
      accountNumber: "8600000001", product: "Geschaeftskonto", openingMinor: 800_000n,
      salaryMinor: 0n, hint: "sole trader: one signature",
    }],
  },
];

/** Every demo account: the PSUs' own, then the companies'. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [...DEMO_PSUS, ...DEMO_CORPORATES]
  .flatMap((holder) => holder.accounts);

function corporateUser(login: string, name: string, device: DemoDevice, maySign: boolean) {
  return { login, password: `${login}-demo`, name, device, accounts: [], maySign };
}

/** A test PSU's Girokonto: money and a salary, so that payments go through and history shows. */
function testAccount(accountNumber: string): DemoAccount {
  return { accountNumber, product: "Girokonto", openingMinor: 500_000n, salaryMinor: 250_000n };
}

/** The devices the bank holds for the PSU: none in the no-device scenario. */
export function registeredDevices(psu: DemoPsu): DemoDevice[] {
  return psu.scenario === "no_device" ? [] : [psu.device, ...(psu.otherDevices ?? [])];
}

/** A small seeded PRNG (mulberry32) so every start of the sandbox shows the same history. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const MERCHANTS = ["REWE Markt", "EDEKA", "Aldi Sued", "dm-drogerie markt", "Deutsche Bahn",
  "Amazon EU", "Shell Station", "Rossmann", "Lidl", "Spotify AB"];

/**
 * Everyday spending stops short of the last 100 EUR: bob, the PSU with little money, could
 * otherwise reach zero late in a month, and whether a small payment of his succeeds would then
 * depend on the day the bank was seeded.
 */
const SPENDING_CUSHION_MINOR = 10_000n;

function monthlyHistory(w: HistoryWriter, acc: LedgerAccountRecord, salary: bigint,
  clearingId: string, start: string, today: string, random: () => number, card?: DemoCardHistory) {
  const cp = (name: string, remittance: string, code: string): Counterparty => ({
    name, remittance, code,
    iban: makeIban("DE", `7001${String(Math.floor(random() * 1e9)).padStart(14, "0")}`),
  });
  for (let day = start; day <= today; day = addDays(day, 1)) {
    const dom = Number(day.slice(8, 10));
    const month = day.slice(0, 7);
    if (salary > 0n && dom === 1) {
      w.book(clearingId, acc.id, salary, day, cp("ACME GmbH", `Gehalt ${month}`, "PMNT-RCDT-ESCT"));
    }
    if (salary > 0n && dom === 3) {
      w.book(acc.id, clearingId, salary * 35n / 100n, day,
        cp("Hausverwaltung Nord", `Miete ${month}`, "PMNT-ICDT-STDO"));
    }
    if (salary > 0n && dom === 15) {
      w.book(acc.id, clearingId, 4_599n, day, cp("Stadtwerke", "Abschlag Strom", "PMNT-IDDT-ESDD"));
    }
    if (salary > 0n && random() < 0.55) {
      const merchant = MERCHANTS[Math.floor(random() * MERCHANTS.length)] ?? "Merchant";
      const amount = BigInt(Math.floor(500 + random() * 8_000));
      if (availableBalance(w.accounts.get(acc.id) ?? acc) - amount >= SPENDING_CUSHION_MINOR) {
        w.book(acc.id, clearingId, amount, day,
          cp(merchant, `Kartenzahlung ${merchant}`, "PMNT-CCRD-POSD"));
      }
    }
    if (salary === 0n && dom === 28 && random() < 0.8) {
      const saving = BigInt(Math.floor(5_000 + random() * 50_000));
      w.book(clearingId, acc.id, saving, day, cp("Eigenuebertrag", "Sparrate", "PMNT-RCDT-ESCT"));
    }
    card?.day(day, acc.id);
  }
}

/**
 * Two card payments of today not booked yet: listed as pending and held in the account's pending
 * debits, so that expected and interimAvailable already count them.
 */
function announce(
  w: HistoryWriter, accountId: string, today: string, random: () => number,
): PendingRecord[] {
  const announced: PendingRecord[] = [];
  for (let i = 0; i < 2; i += 1) {
    const merchant = MERCHANTS[Math.floor(random() * MERCHANTS.length)] ?? "Merchant";
    const amount = BigInt(Math.floor(300 + random() * 4_000));
    const account = w.accounts.get(accountId);
    const creditLimit = w.creditLimits.get(accountId) ?? 0n;
    if (!account || availableBalance(account) + creditLimit < amount) continue;
    w.accounts.set(accountId, { ...account, debitsPending: account.debitsPending + amount });
    announced.push({
      id: newUuid(), accountId, amount: -amount, currency: "EUR", transactionDate: today,
      counterpartyName: merchant, counterpartyIban: null, remittance: `Kartenzahlung ${merchant}`,
      bankTransactionCode: "PMNT-CCRD-POSD",
    });
  }
  return announced;
}

export interface SeedOptions {
  store: Store; clock: Clock; timeZone: string; bic: string;
  hashPassword: Hasher;
}

/** Who holds demo accounts: a PSU, or a company its users act for. */
type DemoHolder = Pick<DemoPsu, "name" | "scenario" | "accounts"> & {
  id: string; kind: "psu" | "company";
};

/** The booked history of the demo accounts, written in memory before one bulk insert. */
interface DemoHistory {
  writer: HistoryWriter; accounts: Map<string, LedgerAccountRecord>;
  equity: LedgerAccountRecord; clearing: LedgerAccountRecord;
  cards: DemoCardHistory[]; pending: PendingRecord[];
  random: () => number; cardRandom: () => number; pendingRandom: () => number;
  nowIso: string; today: string; start: string; bic: string;
}

function newHistory(nowIso: string, today: string, bic: string): DemoHistory {
  const accounts = new Map<string, LedgerAccountRecord>();
  const equity = newLedgerAccount("equity-eur", "equity", { name: "Equity" }, nowIso);
  const clearing = newLedgerAccount("clearing-eur", "clearing", { name: "SEPA clearing" }, nowIso);
  for (const a of [equity, clearing]) accounts.set(a.id, a);
  return {
    writer: new HistoryWriter(accounts), accounts, equity, clearing, cards: [], pending: [],
    // Streams of their own, so that cards and pending items leave the other history as it was.
    random: prng(20260101), cardRandom: prng(20260102), pendingRandom: prng(20260103),
    nowIso, today, start: addDays(today, -400), bic,
  };
}

/** Opens one demo account with its opening balance and 13 months of history. */
function openDemoAccount(h: DemoHistory, holder: DemoHolder, a: DemoAccount): void {
  const { writer, equity, clearing, start, today, nowIso } = h;
  const acc = newLedgerAccount(newUuid(), "customer", {
    iban: makeIban("DE", `${DEMO_BANK_CODE}${a.accountNumber}`),
    ...(holder.kind === "psu" ? { psuId: holder.id } : { corporateId: holder.id }),
    product: a.product, status: "enabled", usage: "PRIV", bic: h.bic, ownerName: holder.name,
    cashAccountType: "CACC", signaturesRequired: a.signaturesRequired ?? 1,
  }, nowIso);
  h.accounts.set(acc.id, acc);
  writer.book(equity.id, acc.id, a.openingMinor, start, {
    name: "Kontoeroeffnung", iban: "", remittance: "Eroeffnungssaldo", code: "ACMT-MCOP-OTHR",
  });
  if (holder.scenario === "empty_accounts") {
    writer.book(acc.id, clearing.id, a.openingMinor, addDays(start, 1),
      { name: holder.name, iban: "", remittance: "Auszahlung", code: "PMNT-ICDT-ESCT" });
    return;
  }
  const card = a.card
    && new DemoCardHistory(writer, a.card, acc, clearing.id, h.cardRandom, nowIso);
  if (card) h.cards.push(card);
  monthlyHistory(writer, acc, a.salaryMinor, clearing.id, addDays(start, 1), today, h.random, card);
  if (a.salaryMinor > 0n) h.pending.push(...announce(writer, acc.id, today, h.pendingRandom));
  if (card) h.pending.push(...announce(writer, card.account.id, today, h.pendingRandom));
}

/** Every demo PSU: the private ones, then the users of the demo companies. */
export const ALL_DEMO_PSUS: readonly DemoPsu[] = [
  ...DEMO_PSUS, ...DEMO_CORPORATES.flatMap((c) => c.users),
];

type Hasher = (password: string) => Promise<string>;

const demoHashes = new WeakMap<Hasher, Promise<string[]>>();

/**
 * The demo PSUs' password hashes, made once per process and hasher: their passwords are published,
 * so a salt the banks of one process share protects nothing less, and a process that seeds many
 * banks (the tests start hundreds) waits for 16 hashes once instead of at every start.
 */
function demoPasswordHashes(hashPassword: Hasher): Promise<string[]> {
  let hashes = demoHashes.get(hashPassword);
  if (!hashes) {
    hashes = Promise.all(ALL_DEMO_PSUS.map((p) => hashPassword(p.password)));
    demoHashes.set(hashPassword, hashes);
    hashes.catch(() => demoHashes.delete(hashPassword));
  }
  return hashes;
}

/** Seeds the demo bank into an empty database; does nothing when PSUs exist already. */
export async function seedDemoData(
  { store, clock, timeZone, bic, hashPassword }: SeedOptions,
): Promise<boolean> {
  if ((await store.psus.count(store.db)) > 0) return false;
  const nowIso = clock.now().toISOString();
  const h = newHistory(nowIso, dateInZone(clock.now(), timeZone), bic);
  const hashes = await demoPasswordHashes(hashPassword);
  const psuRows = ALL_DEMO_PSUS.map((p, i) => ({ demo: p, id: newUuid(), hash: hashes[i] ?? "" }));
  const companies = DEMO_CORPORATES.map((demo) => ({ demo, id: newUuid() }));
  const holders: DemoHolder[] = [
    ...psuRows.map(({ demo, id }) => ({ ...demo, id, kind: "psu" as const })),
    ...companies.map(({ demo, id }) => ({ ...demo, id, kind: "company" as const })),
  ];
  for (const holder of holders) {
    for (const a of holder.accounts) openDemoAccount(h, holder, a);
  }
  await store.transaction(async (tx) => {
    for (const { demo, id, hash } of psuRows) {
      const status = demo.scenario === "blocked" ? "blocked" : "enabled";
      await store.psus.insert(tx, {
        id, login: demo.login, name: demo.name, passwordHash: hash, status, failedAttempts: 0,
        blockedUntil: null, sandbox: sandboxBehaviour(demo),
      }, nowIso);
      for (const device of registeredDevices(demo)) {
        await store.psus.insertDevice(tx, demoDevice(id, device));
      }
    }
    await insertCompanies(store, tx, companies, psuRows, nowIso);
    for (const a of h.accounts.values()) await store.ledger.insertAccount(tx, a);
    await store.ledger.insertHistory(tx, h.writer.transfers, h.writer.entries);
    await cardRepository.insertCards(tx, h.cards.map((c) => c.card));
    await cardRepository.insertDetails(tx, h.cards.flatMap((c) => c.details));
    await pendingRepository.insert(tx, h.pending);
  });
  return true;
}

/** The demo companies and their users' mandates. */
async function insertCompanies(
  store: Store, tx: Tx, companies: readonly { demo: DemoCorporate; id: string }[],
  psuRows: readonly { demo: DemoPsu; id: string }[], nowIso: string,
): Promise<void> {
  const idOf = (login: string) => psuRows.find((r) => r.demo.login === login)?.id ?? "";
  for (const { demo, id } of companies) {
    await store.ledger.insertCorporate(tx,
      { id, corporateId: demo.corporateId, name: demo.name, createdAt: nowIso },
      demo.users.map((u) => ({ corporateId: id, psuId: idOf(u.login), maySign: u.maySign })));
  }
}

/** What the sandbox plays for a demo PSU (sandbox mode only). */
function sandboxBehaviour(demo: DemoPsu): SandboxBehaviour | null {
  if (demo.exempted) return "exempted";
  if (demo.fixedCode) return "fixed_code";
  return demo.scenario === "app_rejects" || demo.scenario === "app_silent" ? demo.scenario : null;
}

function demoDevice(psuId: string, device: DemoDevice): ScaDevice {
  const base = { id: newUuid(), psuId, lastTotpStep: null };
  return device.kind === "totp"
    ? { ...base, kind: "totp", label: "Authenticator app", secret: device.secret, phone: null }
    : {
      ...base, kind: "sms", label: `SMS to ${device.phone.slice(0, 6)}…${device.phone.slice(-2)}`,
      secret: null, phone: device.phone,
    };
}
