/** Every command of the psd2-bank command line, by name; main.ts parses argv and calls run(). */
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import type { Config } from "../config.js";
import { OperatorError } from "../domain/kernel/errors.js";
import { accountCommand, ACCOUNT_USAGE } from "./accounts.js";
import { fraudCommand, FRAUD_USAGE } from "./fraud.js";
import { notificationCommand, NOTIFICATION_USAGE } from "./notifications.js";
import { psuCommand, PSU_USAGE } from "./psus.js";
import { resourceCommand, RESOURCE_USAGE } from "./resources.js";
import { statisticsCommand, STATISTICS_USAGE } from "./statistics.js";
import { auditCommand, tppCommand, TPP_USAGE } from "./tpps.js";

export const USAGE = `Usage: psd2-bank [--config FILE] <command> [options]

  --config FILE         settings from a JSON file of setting names to values; the environment wins

Commands:
  start                 start the TPP API and the PSU pages (default)
  config                print the effective configuration, secrets masked (--json for scripts)
  settings              every setting, its default and allowed values (--markdown: docs table)
  migrate               apply database migrations and exit
  seed                  seed the demo PSUs and accounts into an empty database
  generate              a large data set for scale tests: `
  + `PSUs with one account and booked history each
      --psus N              how many PSUs (default 1000)
      --transactions N      how many transactions in all (default 1000000)
      --seed N              the data set's seed; logins are s<seed>-0000000 ... (default 1)
  tpp-cert              issue a TPP certificate (QWAC form) from the development CA
      --name NAME           organisation name (required)
      --roles R1,R2         PSP_AS, PSP_PI, PSP_AI, PSP_IC (default: all four)
      --org-id ID           organizationIdentifier (default: PSDDE-BAFIN-<random>)
      --domains D1,D2       subjectAltName DNS names (default: localhost)
      --out DIR             where to write tpp.crt and tpp.key (required)
${PSU_USAGE}
${ACCOUNT_USAGE}
${TPP_USAGE}
${RESOURCE_USAGE}
${FRAUD_USAGE}
${NOTIFICATION_USAGE}
${STATISTICS_USAGE}
  demo-tpp              the bank and a demo TPP web app (shop checkout, budgeting) on localhost
      --port N              the demo TPP's port (default 8080)
      --api-url URL         use a bank that is already running instead of starting one
  availability          per-endpoint availability and response times of a running instance
      --url URL             its metrics (default: http://ADMIN_HOST:ADMIN_PORT/metrics)
      --json                print JSON instead of a table

Settings come from the environment (docs/operations.md): API_PORT, AUTH_PORT, DATA_DIR, ...`;

type Command = (config: Config, args: string[]) => Promise<void>;

/**
 * The bank's modules load only for the command that needs them, so that help, a mistake in the
 * arguments and the light commands answer without loading the whole bank (a second and more).
 */
const administration = () => import("../app/administration.js");
const database = () => import("./database.js");
const operations = () => import("./operations.js");

/** Operator commands on the administration use cases, which close the store afterwards. */
function administering(command: (admin: Administration, args: string[]) => Promise<void>): Command {
  return async (config, args) => {
    const admin = await (await administration()).openAdministration(config);
    try {
      await command(admin, args);
    } finally {
      await admin.close();
    }
  };
}

/** A command that takes no options refuses any, so a mistyped flag is not ignored. */
function withoutOptions(command: (config: Config) => Promise<unknown>): Command {
  return async (config, args) => {
    parseArgs({ args, options: {} });
    await command(config);
  };
}

/**
 * Commands for the sandbox only, refused in production: they write PSUs whose passwords are
 * published, or work with the development CA.
 */
function sandboxOnly(name: string, why: string, command: Command): Command {
  return async (config, args) => {
    if (config.mode !== "sandbox") {
      throw new OperatorError(`${name} runs in sandbox mode only: ${why}`);
    }
    await command(config, args);
  };
}

const COMMANDS: Record<string, Command> = {
  start: withoutOptions(async (config) => (await import("./start.js")).start(config)),
  config: async (config, args) => (await operations()).printConfig(config, args),
  settings: async (_config, args) => (await operations()).printSettings(args),
  migrate: withoutOptions(async (config) => (await database()).migrate(config)),
  seed: sandboxOnly("seed", "its demo PSUs' passwords and TOTP secrets are published",
    withoutOptions(async (config) => (await database()).seed(config))),
  generate: sandboxOnly("generate", "its PSUs share a known password, and its bulk load relaxes "
    + "fsync", async (config, args) => (await database()).generate(config, args)),
  "tpp-cert": sandboxOnly("tpp-cert", "it issues from the development CA",
    async (config, args) => (await import("./tpp-cert.js")).tppCert(config, args)),
  "demo-tpp": sandboxOnly("demo-tpp", "it seeds and uses the demo PSUs",
    async (config, args) => (await import("./demo-tpp.js")).demoTpp(config, args)),
  availability: async (config, args) => (await operations()).availability(config, args),
  psu: administering(psuCommand),
  account: administering(accountCommand),
  tpp: administering(tppCommand),
  payment: administering((admin, args) => resourceCommand("payment", admin, args)),
  consent: administering((admin, args) => resourceCommand("consent", admin, args)),
  fraud: administering(fraudCommand),
  audit: administering(auditCommand),
  notification: administering(notificationCommand),
  statistics: administering(statisticsCommand),
};

function known(command: string): Command {
  const found = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (found) return found;
  if (command.startsWith("-")) {
    throw new OperatorError(`there is no option ${command}; "psd2-bank --help" lists them`);
  }
  throw new OperatorError(`unknown command "${command}"\n\n${USAGE}`);
}

/** The usage text's entries of one command, under the usage line. */
export function commandUsage(command: string): string {
  known(command);
  const [usageLine = ""] = USAGE.split("\n");
  const entries = USAGE.split(/\n(?! {3})/).filter((e) => e.startsWith(`  ${command} `));
  return [usageLine, "", ...entries].join("\n");
}

/** What node's parseArgs refused, as a sentence of ours naming the command's --help. */
function argumentMistake(command: string, error: unknown): OperatorError | undefined {
  const code = error instanceof TypeError && "code" in error ? String(error.code) : "";
  if (!code.startsWith("ERR_PARSE_ARGS")) return undefined;
  const quoted = /'([^']+)'/.exec(error instanceof Error ? error.message : "")?.[1] ?? "";
  const option = /--?[\w-]+/.exec(quoted)?.[0] ?? quoted;
  const problem = {
    ERR_PARSE_ARGS_UNKNOWN_OPTION: `has no option ${option}`,
    ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: `takes no argument "${quoted}"`,
  }[code] ?? (/argument missing/.test(String(error)) ? `needs a value after ${option}`
    : `takes no value after ${option}`);
  return new OperatorError(
    `${command} ${problem}; "psd2-bank ${command} --help" lists its options`);
}

/** Runs one command; an operator's mistake is an OperatorError. */
export async function run(command: string, config: Config, args: string[]): Promise<void> {
  const found = known(command);
  try {
    await found(config, args);
  } catch (error) {
    throw argumentMistake(command, error) ?? error;
  }
}
