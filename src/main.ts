#!/usr/bin/env node
/**
 * The psd2-bank command line: takes the global --config option and the command out of argv and
 * hands them to cli/, where every command lives; turns an operator's mistake into exit status 2.
 */
import "./cli/compile-cache.js";
import { readFileSync } from "node:fs";
import { commandUsage, run, USAGE } from "./cli/commands.js";
import { operatorMistake } from "./cli/output.js";
import { ConfigError, loadConfig, loadConfigFile, type Config } from "./config.js";

function fail(message: string): never {
  process.stderr.write(`psd2-bank: ${message}\n`);
  process.exit(2);
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function version(): string {
  const manifest = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
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

async function main(argv: string[]): Promise<void> {
  const { config, args } = configFrom(argv);
  const [command = "start", ...rest] = args;
  const asksHelp = (list: string[]) => list.some((a) => a === "--help" || a === "-h");
  if (asksHelp([command]) || command === "help") return print(USAGE);
  if (command === "--version") return print(`psd2-bank ${version()}`);
  // Help needs no valid settings: it is what one reads when they are wrong.
  if (asksHelp(rest)) return print(commandUsage(command));
  await run(command, config(), rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  const mistake = operatorMistake(error);
  if (mistake !== undefined) fail(mistake);
  process.stderr.write(`psd2-bank: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
