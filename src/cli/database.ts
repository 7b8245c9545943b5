/** `psd2-bank migrate`, `seed` and `generate`: the database without starting the bank. */
import { parseArgs } from "node:util";
import { generateData, seedDatabase } from "../app/seeding.js";
import { migrateDatabase } from "../app/store.js";
import type { Config } from "../config.js";
import { OperatorError } from "../domain/kernel/errors.js";

export async function migrate(config: Config): Promise<void> {
  let applied = 0;
  const engine = await migrateDatabase(config, (name) => {
    applied += 1;
    process.stdout.write(`  applied ${name}\n`);
  });
  process.stdout.write(
    `The ${engine} database is up to date (${applied} migrations applied now).\n`);
}

export async function seed(config: Config): Promise<void> {
  const seeded = await seedDatabase(config);
  process.stdout.write(seeded ? "Seeded the demo bank.\n"
    : "The database already has PSUs; nothing seeded.\n");
}

function count(name: string, raw: string | undefined, fallback: number, max: number): number {
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new OperatorError(`--${name} must be a whole number from 1 to ${max}`);
  }
  return value;
}

/** Prints every tenth percent once. */
function progressPrinter(): (done: number, total: number) => void {
  let shown = -1;
  return (done, total) => {
    const percent = Math.floor((100 * done) / total / 10) * 10;
    if (percent > shown) process.stdout.write(`  ${percent} % (${done} of ${total} bookings)\n`);
    shown = percent;
  };
}

export async function generate(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args, options: {
      psus: { type: "string" }, transactions: { type: "string" }, seed: { type: "string" },
    },
  });
  const psus = count("psus", values.psus, 1000, 10_000_000);
  const transactions = count("transactions", values.transactions, 1_000_000, 100_000_000);
  const seed = count("seed", values.seed, 1, 1_000_000);
  const size = { psus, transactions, seed, progress: progressPrinter() };
  const started = Date.now();
  const result = await generateData(config, size, "generated-demo").catch((error: unknown) => {
    throw error instanceof RangeError ? new OperatorError(error.message) : error;
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`Generated ${psus} PSUs (${result.firstLogin} ... ${result.lastLogin}, `
    + `password generated-demo) with ${result.transactions} bookings in ${seconds} s.\n`);
}
