/**
 * A minimal Prometheus registry: counters and histograms with labels, and gauges read at scrape
 * time, rendered in the text exposition format 0.0.4. Small enough that a client library's
 * default process metrics and global state are not worth the dependency.
 */

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const pairs = Object.entries(labels).map(([k, v]) =>
    `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
  return pairs.length > 0 ? `{${pairs.join(",")}}` : "";
}

/**
 * A series' key, kept per labels object: a caller that records the same labels object again
 * (one per operation and status) skips the escaping. Labels are therefore never changed once
 * recorded.
 */
const keys = new WeakMap<Labels, string>();

function seriesKey(labels: Labels): string {
  let key = keys.get(labels);
  if (key === undefined) {
    key = labelText(labels);
    keys.set(labels, key);
  }
  return key;
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
}

export class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(readonly name: string, readonly help: string) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = seriesKey(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }

  render(): string {
    let text = header(this.name, this.help, "counter");
    for (const [key, { value }] of this.values) text += `${this.name}${key} ${value}\n`;
    return text;
  }
}

/** Latency buckets in seconds, from a cached read to a slow write. */
export const LATENCY_BUCKETS =
  [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

export class Histogram {
  private readonly series =
    new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string, readonly help: string,
    readonly buckets: readonly number[] = LATENCY_BUCKETS,
  ) {}

  observe(labels: Labels, value: number): void {
    const key = seriesKey(labels);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    const index = this.buckets.findIndex((bound) => value <= bound);
    if (index >= 0) entry.counts[index] = (entry.counts[index] ?? 0) + 1;
    entry.sum += value;
    entry.count += 1;
  }

  render(): string {
    let text = header(this.name, this.help, "histogram");
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += counts[i] ?? 0;
        text += `${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${cumulative}\n`;
      });
      text += `${this.name}_bucket${labelText({ ...labels, le: "+Inf" })} ${count}\n`;
      text += `${this.name}_sum${labelText(labels)} ${sum}\n`;
      text += `${this.name}_count${labelText(labels)} ${count}\n`;
    }
    return text;
  }
}

export interface GaugeSample { labels: Labels; value: number }

/** A gauge whose samples are read when scraped (e.g. counts by status from the database). */
export class Gauge {
  constructor(
    readonly name: string, readonly help: string,
    private readonly read: () => Promise<GaugeSample[]>,
  ) {}

  async render(): Promise<string> {
    let text = header(this.name, this.help, "gauge");
    for (const { labels, value } of await this.read()) {
      text += `${this.name}${labelText(labels)} ${value}\n`;
    }
    return text;
  }
}

export class MetricsRegistry {
  private readonly metrics: (Counter | Histogram | Gauge)[] = [];

  counter(name: string, help: string): Counter {
    return this.add(new Counter(name, help));
  }

  histogram(name: string, help: string): Histogram {
    return this.add(new Histogram(name, help));
  }

  gauge(name: string, help: string, read: () => Promise<GaugeSample[]>): Gauge {
    return this.add(new Gauge(name, help, read));
  }

  private add<T extends Counter | Histogram | Gauge>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }

  async render(): Promise<string> {
    const parts = await Promise.all(this.metrics.map((m) => m.render()));
    return parts.join("");
  }
}

/** One sample line of the text format, parsed back: what the availability report reads. */
export interface ParsedSample { name: string; labels: Labels; value: number }

export function parseExposition(text: string): ParsedSample[] {
  const samples: ParsedSample[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Labels = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ""] = (pair[2] ?? "").replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
    }
    samples.push({ name: match[1] ?? "", labels, value: Number(match[3]) });
  }
  return samples;
}
