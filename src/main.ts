#!/usr/bin/env node
/**
 * The psd2-bank command line: takes the global --config option and the command out of argv and
 * hands them to cli/, where every command lives; turns an operator's mistake into exit status 2.
 */
import { readFileSync } from "node:fs";
import { run, usageOf, USAGE } from "./cli/commands.js";
import { operatorMistake } from "./cli/output.js";
import { ConfigError, loadConfig, loadConfigFile, type Config } from "./config.js";

function fail(message: string): never {
  process.stderr.write(`psd2-bank: ${message}\n`);
  process.exit(2);
}

/** Takes the global --config option out of argv, wherever it stands. */
function configFrom(argv: string[]): { config: () => Config; args: string[] } {
  const args = [...argv];
  const at = args.findIndex((a) => a === "--config" || a.startsWith("--config="));
  if (at < 0) return { config: () => loadConfig(), args };
  const [flag = ""] = args.splice(at, 1);
  const path = flag.includes("=") ? flag.slice("--config=".length) : args.splice(at, 1)[0];
  if (!path) fail("--config needs a file");
  return { config: () => loadConfigFile(path), args };
}

const HELP = ["--help", "-h", "help"];

/** The version of the package this command came with. */
function version(): string {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

async function main(argv: string[]): Promise<void> {
  const { config, args } = configFrom(argv);
  const [command = "start", ...rest] = args;
  if (HELP.includes(command)) return void process.stdout.write(`${USAGE}\n`);
  if (command === "--version") return void process.stdout.write(`psd2-bank ${version()}\n`);
  // Before the command runs: `start --help` must not start the bank.
  if (rest.some((arg) => HELP.includes(arg))) {
    return void process.stdout.write(`${usageOf(command)}\n`);
  }
  await run(command, config(), rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  const mistake = operatorMistake(error);
  if (mistake !== undefined) fail(mistake);
  process.stderr.write(`psd2-bank: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
