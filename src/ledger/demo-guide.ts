/**
 * The demo PSUs as people read them: docs/tpp-guide.md's tables and the start banner, both rendered
 * from DEMO_PSUS, so neither can list a device, secret or account the sandbox does not have.
 */
import { makeIban } from "../lib/iban.js";
import { maskPan } from "../lib/pan.js";
import {
  DEMO_BANK_CODE, DEMO_CORPORATES, DEMO_PSUS, registeredDevices, type DemoAccount,
  type DemoDevice, type DemoPsu,
} from "./demo-data.js";

type Scenario = NonNullable<DemoPsu["scenario"]>;

/** What the TPP meets (docs/tpp-guide.md), and the banner's reminder where devices don't say it. */
const SCENARIOS: Record<Scenario, { readme: string; banner?: string }> = {
  empty_accounts: {
    readme: "always empty: every payment from it ends `RJCT` (insufficient funds)",
    banner: "accounts always empty",
  },
  blocked: {
    readme: "blocked: after the right password the page says \"access is blocked\" (a wrong one "
      + "is answered as for anyone), the authorisation cannot proceed",
    banner: "blocked by the bank",
  },
  no_device: { readme: "after the password the page says to contact the bank" },
  device_choice: { readme: "after the password the page asks which device to use" },
  app_rejects: {
    readme: "decoupled: the bank app rejects every request at once (`failed`, the payment "
      + "`RJCT`)",
    banner: "app rejects every request",
  },
  app_silent: {
    readme: "decoupled: the bank app never answers; the request fails after "
      + "`DECOUPLED_TIMEOUT_SECONDS`",
    banner: "app never answers",
  },
};

const code = (text: string, markdown: boolean) => (markdown ? `\`${text}\`` : text);

function deviceText(device: DemoDevice, markdown: boolean): string {
  return device.kind === "totp"
    ? `authenticator app, TOTP secret ${code(device.secret, markdown)}` : `SMS to ${device.phone}`;
}

function devicesText(psu: DemoPsu, markdown: boolean): string {
  const devices = registeredDevices(psu).map((d) => deviceText(d, markdown));
  if (devices.length === 0) return "no authorization device";
  const fixed = psu.fixedCode ? ` (code always ${code("123456", markdown)})` : "";
  return `${devices.join(", or ")}${fixed}`;
}

function accountText(account: DemoAccount): string {
  const iban = makeIban("DE", `${DEMO_BANK_CODE}${account.accountNumber}`);
  return `${iban} (${[account.product, ...(account.hint ? [account.hint] : [])].join(", ")})`;
}

/** The accounts, then the cards settled from them. */
function accountsText(accounts: readonly DemoAccount[]): string {
  const cards = accounts.flatMap(({ card }) => (card
    ? [`card ${maskPan(card.pan)} (limit ${(card.creditLimitMinor / 100n).toLocaleString("en")})`]
    : []));
  return [accounts.map(accountText).join(", "), ...cards].join("; ");
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** A table's last column, where it has one: its heading and each PSU's cell. */
interface Column { head: string; cell: (psu: DemoPsu) => string }

function table(psus: readonly DemoPsu[], last?: Column): string {
  const head = ["Login", "Password", "Authorization device", "Accounts (EUR)",
    ...(last ? [last.head] : [])];
  const rows = psus.map((p) => row([code(p.login, true), code(p.password, true),
    devicesText(p, true), accountsText(p.accounts), ...(last ? [last.cell(p)] : [])]));
  return [row(head), `|${head.map(() => "---").join("|")}|`, ...rows].join("\n");
}

const scenarioColumn: Column = {
  head: "Scenario", cell: (p) => (p.scenario ? SCENARIOS[p.scenario].readme : ""),
};

/** The branch of an authorisation a TPP's test meets with each test PSU, every time. */
function testBranch(psu: DemoPsu, markdown: boolean): string {
  if (psu.exempted) {
    return markdown ? "SCA exempted: the password alone answers `scaStatus` `exempted` and "
      + "authorises the payment or consent (a funds-confirmation consent, a signing basket or a "
      + "cancellation, which no exemption spares, still asks for the code)"
      : "SCA exempted after the password";
  }
  return registeredDevices(psu).length > 1
    ? (markdown ? "two SCA methods: the TPP selects one (`authenticationMethodId`)"
      : "two methods to choose from")
    : (markdown ? "one SCA method: no selection step" : "one method");
}

/**
 * docs/tpp-guide.md's three tables: everyday PSUs, the scenario PSUs for a TPP's unhappy paths, and
 * the test PSUs for a TPP's automation (their code is always 123456).
 */
export function demoPsuTables(): { everyday: string; scenarios: string; testing: string } {
  const demo = DEMO_PSUS.filter((p) => !p.fixedCode);
  return {
    everyday: table(demo.filter((p) => !p.scenario)),
    scenarios: table(demo.filter((p) => p.scenario), scenarioColumn),
    testing: table(DEMO_PSUS.filter((p) => p.fixedCode),
      { head: "Every run", cell: (p) => testBranch(p, true) }),
  };
}

const rightText = (user: { maySign: boolean }) => (user.maySign ? "signs" : "may only see");

/** docs/tpp-guide.md's table of company customers: one row per user, as a TPP addresses them. */
export function demoCorporateTable(): string {
  const head = ["`PSU-Corporate-ID`", "Company", "Accounts (EUR)", "Login", "Password",
    "Authorization device", "Right"];
  const rows = DEMO_CORPORATES.flatMap((c) => c.users.map((u) => row([
    code(c.corporateId, true), c.name, accountsText(c.accounts), code(u.login, true),
    code(u.password, true), devicesText(u, true), rightText(u)])));
  return [row(head), `|${head.map(() => "---").join("|")}|`, ...rows].join("\n");
}

/** What a company user's banner line adds: the company and the user's right. */
function corporateOf(login: string): string {
  const company = DEMO_CORPORATES.find((c) => c.users.some((u) => u.login === login));
  const user = company?.users.find((u) => u.login === login);
  return company && user ? ` (${company.corporateId}: ${rightText(user)})` : "";
}

/** One line per demo PSU for the start banner. */
export function demoPsuLines(): string[] {
  return [...DEMO_PSUS, ...DEMO_CORPORATES.flatMap((c) => c.users)].map((p) => {
    const banner = p.fixedCode ? testBranch(p, false) : p.scenario && SCENARIOS[p.scenario].banner;
    const devices = `${devicesText(p, false)}${banner ? ` (${banner})` : ""}`;
    const company = corporateOf(p.login);
    return `${p.login.padEnd(7)} password ${p.password.padEnd(12)} ${devices}${company}`;
  });
}

/**
 * The banner's block saying where each demo PSU's code comes from: the sandbox shows the app's
 * current code and the SMS a PSU "received", so no authenticator app or phone is needed.
 */
export function demoCodeLines(authUrl: string): string[] {
  const everyone = [...DEMO_PSUS, ...DEMO_CORPORATES.flatMap((c) => c.users)];
  const holding = (kind: DemoDevice["kind"]) => everyone
    .filter((p) => registeredDevices(p).some((d) => d.kind === kind)).map((p) => p.login);
  return [
    `app users: GET ${authUrl}/sandbox/totp/<login>  (${holding("totp").join(", ")})`,
    `SMS users: GET ${authUrl}/sandbox/sms/<login>   (${holding("sms").join(", ")})`,
  ];
}
