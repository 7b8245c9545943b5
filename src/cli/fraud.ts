/**
 * `psd2-bank fraud ...`: the flagged payee identifiers exchanged with other PSPs (PSR art. 83 in
 * the Commission's proposal): export writes this bank's list, import flags another PSP's.
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { Administration } from "../app/administration.js";
import { OperatorError } from "../domain/kernel/errors.js";
import { print, required, usageEntry } from "./output.js";

export const FRAUD_USAGE = [
  usageEntry("fraud export [FILE]", "the flagged payee IBANs as JSON (docs/operations.md, "
    + "Fraud signals), to FILE or standard output"),
  usageEntry("fraud import FILE", "flags the payee IBANs of another PSP's list; a list with a "
    + "mistake flags none"),
].join("\n");

/** The file's JSON; a missing file or broken JSON is the operator's mistake. */
async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new OperatorError(`cannot read it (${(error as NodeJS.ErrnoException).code})`, file);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new OperatorError(`not JSON: ${(error as Error).message}`, file);
  }
}

export async function fraudCommand(admin: Administration, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: { json: { type: "boolean" } },
  });
  const [action, file] = positionals;
  if (action === "export") {
    const document = await admin.fraud.exportSignals();
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (file === undefined) return void process.stdout.write(text);
    await writeFile(file, text);
    return print(values.json, { file, identifiers: document.identifiers.length },
      () => `${document.identifiers.length} flagged identifiers written to ${file}\n`);
  }
  if (action === "import") {
    const result = await admin.fraud.importSignals(await readJson(required(file, "the file")));
    return print(values.json, result, () => `${result.identifiers} identifiers from `
      + `${result.provider}; ${result.flagged} newly flagged\n`);
  }
  throw new OperatorError(`fraud needs one of: export, import\n${FRAUD_USAGE}`);
}
