/** Operator commands about a running instance and the configuration. */
import { parseArgs } from "node:util";
import { OperatorError } from "../domain/kernel/errors.js";
import { endpointFigures } from "../admin.js";
import { maskedConfig, SETTINGS, settingsMarkdown, type Config } from "../config.js";
import { parseExposition } from "../lib/metrics.js";
import { print, table } from "./output.js";

export async function availability(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args, options: { url: { type: "string" }, json: { type: "boolean" } },
  });
  const url = values.url ?? `http://${config.adminHost}:${config.adminPort}/metrics`;
  const response = await fetch(url).catch((error: Error) => {
    throw new OperatorError(`cannot read ${url}: ${error.message}`);
  });
  if (!response.ok) throw new OperatorError(`${url} answered ${response.status}`);
  const figures = endpointFigures(parseExposition(await response.text()));
  print(values.json, figures, () => table(["endpoint", "requests", "availability", "mean", "p95"],
    figures.map((f) => [f.operation, String(f.requests), `${f.availabilityPercent.toFixed(3)} %`,
      `${f.meanMs.toFixed(1)} ms`, `≤ ${f.p95Ms} ms`])));
}

export function printConfig(config: Config, args: string[]): void {
  const { values } = parseArgs({ args, options: { json: { type: "boolean" } } });
  const masked = maskedConfig(config);
  print(values.json, masked, () => table(["setting", "value"],
    Object.entries(masked).map(([k, v]) => [k, String(v)])));
}

/** Every setting with its default and meaning; --markdown prints docs/operations.md's table. */
export function printSettings(args: string[]): void {
  const { values } = parseArgs({ args, options: { markdown: { type: "boolean" } } });
  if (values.markdown) return void process.stdout.write(settingsMarkdown());
  process.stdout.write(table(["setting", "default", "values"],
    Object.values(SETTINGS).map((s) => [s.name, s.shownDefault, s.shownRange])));
}
