/** The benchmarks' results as JSON and Markdown in bench/results/, with the targets checked. */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Result } from "./load.js";

const OUT = fileURLToPath(new URL("../../../bench/results/", import.meta.url));

export interface Check { target: string; measured: string; met: boolean }

export type Meta = Record<string, string | number>;

/** Fills in each result's ratios to `baseline`. */
export function relativeTo(baseline: Result, results: Result[]): void {
  const ratio = (a: number, b: number) => Math.round((100 * a) / Math.max(b, 1)) / 100;
  for (const r of results) {
    r.ofBaseline = {
      requestsPerSecond: ratio(r.requestsPerSecond, baseline.requestsPerSecond),
      p50: ratio(r.p50Ms, baseline.p50Ms), p99: ratio(r.p99Ms, baseline.p99Ms),
    };
  }
}

function table(results: Result[]): string {
  const rows = results.map((r) => {
    const of = r.ofBaseline;
    return `| ${r.scenario} | ${r.requestsPerSecond} | ${of ? `${Math.round(100 * of.requestsPerSecond)} %` : ""} `
      + `| ${r.p50Ms} | ${r.p99Ms} | ${of ? `${of.p50}× / ${of.p99}×` : ""} `
      + `| ${r.serverCpuUsPerRequest ?? ""} `
      + `| ${Object.entries(r.cpuUsPerRequest ?? {}).map(([label, us]) => `${label} ${us}`).join(", ")} `
      + `| ${r.errors + r.non2xx} |`;
  });
  return "| Scenario | Requests/s | Of baseline | p50 ms | p99 ms | p50 / p99 vs baseline "
    + "| Server CPU µs/request | Other CPU µs/request | Errors |\n"
    + `|---|---|---|---|---|---|---|---|---|\n${rows.join("\n")}\n`;
}

export function metaList(meta: Meta): string {
  return Object.entries(meta).map(([k, v]) => `- ${k}: ${v}`).join("\n");
}

export function markdown(title: string, meta: Meta, sections: [string, Result[]][], checks: Check[]): string {
  const lines = metaList(meta);
  const body = sections.map(([name, results]) => `## ${name}\n\n${table(results)}`).join("\n");
  const targets = checks.map((c) => `| ${c.target} | ${c.measured} | ${c.met ? "met" : "MISSED"} |`).join("\n");
  return `# ${title}\n\n${lines}\n\n${body}\n## Targets\n\n| Target | Measured | |\n|---|---|---|\n${targets}\n`;
}

/** Writes `<name>.json` and `<name>.md` and prints the Markdown. */
export async function writeResults(name: string, json: unknown, md: string): Promise<void> {
  await mkdir(OUT, { recursive: true });
  await writeFile(join(OUT, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
  await writeFile(join(OUT, `${name}.md`), md);
  process.stdout.write(md);
}

export async function machine(): Promise<Meta> {
  const cpus = (await readFile("/proc/cpuinfo", "utf8")).split("\n").filter((l) => l.startsWith("processor")).length;
  return { date: new Date().toISOString(), node: process.version, cpus,
    loadAverageAtStart: loadavg().map((l) => l.toFixed(2)).join(" ") };
}
