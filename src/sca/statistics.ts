/**
 * The published statistics of the dedicated interface (RTS art. 32(4), EBA/GL/2018/07
 * guideline 3) on the PSU listener, for anyone: a page per the last four quarters, each with a
 * chart drawn in inline SVG (no script, nothing the strict CSP refuses), and the daily figures
 * as CSV.
 */
import type { FastifyInstance } from "fastify";
import type { Category } from "../domain/statistics/ports.js";
import {
  lastFourQuarters, statisticsCsv, type Figures, type QuarterReport,
  type StatisticsReport,
} from "../domain/statistics/report.js";
import type { Clock } from "../lib/clock.js";
import { html, type Html } from "../lib/html.js";
import { longDate } from "./format.js";
import { translator, type MessageKey } from "./messages/index.js";
import { rememberLanguage, requestLanguage } from "./plugin.js";
import { page, type BankLinks, type PageFrame } from "./views.js";

export const STATISTICS_PATH = "/statistics";

const CATEGORY_NAMES: Record<Category, MessageKey> = {
  AIS: "category_ais", PIS: "category_pis", PIIS: "category_piis", PSU: "category_psu",
};

function formats(lang: string) {
  const number = new Intl.NumberFormat(lang);
  const ms = new Intl.NumberFormat(lang,
    { style: "unit", unit: "millisecond", maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 3 });
  const minutes = new Intl.NumberFormat(lang,
    { style: "unit", unit: "minute", maximumFractionDigits: 1 });
  return {
    number: (n: number) => number.format(n),
    ms: (n: number | null) => n === null ? "–" : ms.format(n),
    percent: (n: number | null) => n === null ? "–" : percent.format(n / 100),
    minutes: (seconds: number) => minutes.format(seconds / 60),
  };
}

type Formats = ReturnType<typeof formats>;

const BAR_HEIGHT = 28;
const LABEL_WIDTH = 250;
const CHART_WIDTH = 480;

/** Horizontal bars of the mean response time, the PSU's pages last for the comparison. */
function chart(
  frame: PageFrame, f: Formats, totals: readonly Figures[], label: { id: string; title: string },
): Html {
  const longest = Math.max(1, ...totals.map((t) => t.meanMs ?? 0));
  const room = CHART_WIDTH - LABEL_WIDTH - 90;
  const bars = totals.map((t, i) => {
    const y = i * BAR_HEIGHT;
    const width = t.meanMs === null ? 0 : Math.max(1, Math.round((room * t.meanMs) / longest));
    return html`<text x="0" y="${y + 18}">${frame.t(CATEGORY_NAMES[t.category])}</text>
<rect x="${LABEL_WIDTH}" y="${y + 6}" width="${width}" height="16" fill="${
  t.category === "PSU" ? "#4f566b" : "#0b4f8a"}"></rect>
<text x="${LABEL_WIDTH + width + 6}" y="${y + 18}">${f.ms(t.meanMs)}</text>`;
  });
  const height = totals.length * BAR_HEIGHT;
  return html`<svg class="chart" role="img" aria-labelledby="${label.id}" viewBox="0 0 ${
    CHART_WIDTH} ${height}" width="100%" font-size="13" fill="#1a1f36"><title id="${label.id}">${
    label.title}</title>${bars}</svg>`;
}

function totalsTable(frame: PageFrame, f: Formats, totals: readonly Figures[]): Html {
  const t = frame.t;
  const rows = totals.map((r) => html`<tr><th scope="row">${t(CATEGORY_NAMES[r.category])}</th>
<td>${f.number(r.requests)}</td><td>${f.ms(r.meanMs)}</td><td>${f.percent(r.errorRatePercent)}</td>
<td>${f.percent(r.availabilityPercent)}</td></tr>`);
  return html`<table class="figures"><thead><tr><th scope="col">${t("statistics_category")}</th>
<th scope="col">${t("statistics_requests")}</th><th scope="col">${t("statistics_mean")}</th>
<th scope="col">${t("statistics_errors")}</th><th scope="col">${
  t("statistics_availability")}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function quarterSection(frame: PageFrame, report: QuarterReport): Html {
  const f = formats(frame.lang);
  const [year = "", n = ""] = report.quarter.split("Q");
  const name = frame.t("statistics_quarter", { n, year });
  const id = `q${report.quarter}`;
  if (report.days.length === 0) {
    return html`<section aria-labelledby="${id}"><h2 id="${id}">${name}</h2><p>${
      frame.t("statistics_none")}</p></section>`;
  }
  const from = longDate(report.days[0]?.day ?? "", frame.lang);
  const to = longDate(report.days.at(-1)?.day ?? "", frame.lang);
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${name}</h2>
<p>${frame.t("statistics_period", { from, to })}</p>
${chart(frame, f, report.totals,
    { id: `${id}-chart`, title: frame.t("statistics_chart", { quarter: name }) })}
${totalsTable(frame, f, report.totals)}
<p>${frame.t("statistics_downtime", { dedicated: f.minutes(report.downtimeSeconds.dedicated),
    psu: f.minutes(report.downtimeSeconds.psu) })}</p></section>`;
}

export function statisticsPage(frame: PageFrame, reports: readonly QuarterReport[]): string {
  const sections = [...reports].reverse().map((r) => quarterSection(frame, r));
  return page(frame, html`<h1>${frame.t("statistics_heading")}</h1>
<p>${frame.t("statistics_intro")}</p><p>${frame.t("statistics_definitions")}</p>
<p><a href="${STATISTICS_PATH}.csv">${frame.t("statistics_download")}</a></p>${sections}`);
}

export interface StatisticsPagesOptions {
  report: StatisticsReport;
  clock: Clock;
  bankName: string;
  links: BankLinks;
}

export function statisticsPages(app: FastifyInstance, options: StatisticsPagesOptions): void {
  const { report, clock } = options;
  const lastFour = () => Promise.all(
    lastFourQuarters(clock.now().toISOString().slice(0, 10)).map((q) => report.quarter(q)));
  app.get(STATISTICS_PATH, async (request, reply) => {
    rememberLanguage(request, reply);
    const lang = requestLanguage(request);
    const frame: PageFrame = { lang, t: translator(lang), bankName: options.bankName,
      links: options.links, title: "statistics_title", path: STATISTICS_PATH };
    return reply.type("text/html; charset=utf-8").send(statisticsPage(frame, await lastFour()));
  });
  app.get(`${STATISTICS_PATH}.csv`, async (_request, reply) => {
    return reply.type("text/csv; charset=utf-8")
      .header("Content-Disposition", 'attachment; filename="interface-statistics.csv"')
      .send(statisticsCsv(await lastFour()));
  });
}
