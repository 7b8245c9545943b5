/** Help and version for every command, and a mistyped flag answered in a sentence of ours. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { MAIN } from "../support/cli.js";

/** Settings that would stop any command: help must not read them. */
const BROKEN = { API_PORT: "eighty", DATA_DIR: "/proc/never-created" };

/** The command with `env`, killed after 30 s: a command that starts instead of refusing fails. */
function runBounded(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [MAIN, ...args],
    { env: { ...process.env, LOG_LEVEL: "silent", ...env }, encoding: "utf8", timeout: 30_000 });
}

const cli = (...args: string[]) => runBounded(args, BROKEN);

const COMMANDS = ["start", "config", "settings", "migrate", "seed", "generate", "tpp-cert", "psu",
  "account", "tpp", "payment", "consent", "audit", "notification", "demo-tpp", "availability"];

test("--help, -h and help print the usage of every command, and start nothing", () => {
  for (const flag of ["--help", "-h", "help"]) {
    const result = cli(flag);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^Usage: psd2-bank \[--config FILE\] <command> \[options\]\n/);
    for (const command of COMMANDS) assert.match(result.stdout, new RegExp(`\n  ${command} `));
  }
});

test("<command> --help and -h print that command's usage and do not run it", () => {
  for (const command of COMMANDS) {
    for (const flag of ["--help", "-h"]) {
      const result = cli(command, flag);
      assert.equal(result.status, 0, `${command} ${flag}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`^Usage: psd2-bank .*\n\n  ${command} `), command);
      assert.doesNotMatch(result.stdout, /psd2-bank is ready/);
    }
  }
  assert.match(cli("demo-tpp", "--help").stdout, /--api-url URL +use a bank that is already running/);
  assert.match(cli("psu", "list", "--help").stdout, /psu enrol-device L --kind totp\|sms/);
});

test("--version prints the package's version", async () => {
  const manifest = fileURLToPath(new URL("../../../package.json", import.meta.url));
  const { version } = JSON.parse(await readFile(manifest, "utf8"));
  const result = cli("--version");
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout, `psd2-bank ${version}\n`);
});

test("an unknown flag, a missing value and a stray argument read as one sentence of ours", () => {
  const refusals: [string[], string][] = [
    [["demo-tpp", "--prot", "3"],
      `demo-tpp has no option --prot; "psd2-bank demo-tpp --help" lists its options`],
    [["demo-tpp", "--port"],
      `demo-tpp needs a value after --port; "psd2-bank demo-tpp --help" lists its options`],
    [["start", "--verbose"], `start has no option --verbose; "psd2-bank start --help" lists its options`],
    [["migrate", "now"], `migrate takes no argument "now"; "psd2-bank migrate --help" lists its options`],
    [["--verbose"], `there is no option --verbose; "psd2-bank --help" lists them`],
  ];
  for (const [args, sentence] of refusals) {
    const result = runBounded(args, { DATA_DIR: "/proc/psd2-bank-never-created" });
    assert.equal(result.status, 2, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
    assert.equal(result.stderr, `psd2-bank: ${sentence}\n`);
  }
});
