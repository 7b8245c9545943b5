/**
 * Measures, inside each instance, what the interface statistics publish: every request is marked
 * when it arrives and when it is answered, on the hot path in memory only; flush() adds the
 * figures to the database's shared counters (scheduled every few seconds, and once at close).
 *
 * Availability follows EBA/GL/2018/07 guideline 2.4: the interface is down from the arrival of
 * the first of five consecutive requests that were not answered within 30 s, until a request is
 * answered in time. Requests are judged in the order they arrived, so one answered in time after
 * a hanging one still breaks the series, as the guideline's "no successful request in between"
 * asks. A request not answered at all is judged by flush(), which is also the heartbeat.
 *
 * A request whose client closed the connection before the answer counts nowhere: there is no
 * answer to time or judge. Without that, one left open would hold every later request's mark in
 * memory until flush() judged it 30 s on (about 30 MB at 5,000 requests/s), and several at once
 * (a TPP's load ending) would publish as errors and downtime.
 */
import { newUuid } from "../../lib/ids.js";
import type { StoreDeps } from "../deps.js";
import {
  interfaceOf, type Category, type DayCounts, type Downtime, type Interface,
} from "./ports.js";

export const UNANSWERED_MS = 30_000;
const SERIES = 5;
const DAY_MS = 86_400_000;

/** One request while it is being answered. */
export interface RequestMark {
  readonly category: Category;
  readonly day: string;
  readonly arrivedMs: number;
  outcome: "open" | "answered" | "failed" | "abandoned";
  answeredMs: number;
}

interface Window { startMs: number; endMs: number }

/** One interface's series of requests in order of arrival, and its windows of downtime. */
function createSeries() {
  let queue: RequestMark[] = [];
  let head = 0;
  let failures = 0;
  let firstFailureMs = 0;
  let downSince: number | null = null;
  let closed: Window[] = [];

  /** Judges the requests at the head of the queue whose outcome is known, oldest first. */
  function settle(): void {
    for (let mark = queue[head]; mark && mark.outcome !== "open"; mark = queue[head]) {
      head += 1;
      if (mark.outcome === "abandoned") continue;
      if (mark.outcome === "failed") {
        if (failures === 0) firstFailureMs = mark.arrivedMs;
        failures += 1;
        if (failures >= SERIES && downSince === null) downSince = firstFailureMs;
      } else {
        failures = 0;
        if (downSince !== null) closed.push({ startMs: downSince, endMs: mark.answeredMs });
        downSince = null;
      }
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  }

  return {
    settle,
    arrived(mark: RequestMark): void { queue.push(mark); },
    /** The open requests that arrived before `beforeMs`, oldest first. */
    *overdue(beforeMs: number): Generator<RequestMark> {
      for (let i = head; i < queue.length; i += 1) {
        const mark = queue[i];
        if (!mark || mark.arrivedMs >= beforeMs) return;
        if (mark.outcome === "open") yield mark;
      }
    },
    /** The windows closed since the last call; the open one, up to `nowMs`, is only read. */
    takeWindows(nowMs: number): { closed: Window[]; open: Window[] } {
      const taken = closed;
      closed = [];
      const open = downSince === null ? [] : [{ startMs: downSince, endMs: nowMs }];
      return { closed: taken, open };
    },
    /** Windows a failed flush took back, to be written with the next. */
    restore(windows: Window[]): void { closed = [...windows, ...closed]; },
    isDown: () => downSince !== null,
  };
}

/** One instance's measurements in memory: the counts and each interface's series. */
function createMeasurements() {
  const series: Record<Interface, ReturnType<typeof createSeries>> =
    { dedicated: createSeries(), psu: createSeries() };
  let counts = new Map<string, DayCounts>();

  function resolve(mark: RequestMark, failed: boolean, durationMs: number): void {
    mark.outcome = failed ? "failed" : "answered";
    mark.answeredMs = mark.arrivedMs + durationMs;
    mergeInto(counts, { day: mark.day, category: mark.category, requests: 1,
      errors: failed ? 1 : 0, durationUs: Math.round(durationMs * 1000) });
    series[interfaceOf(mark.category)].settle();
  }

  return {
    series,
    resolve,
    /** Its client left first: it counts nowhere, unless it had waited 30 s unanswered. */
    abandon(mark: RequestMark, nowMs: number): void {
      if (nowMs - mark.arrivedMs >= UNANSWERED_MS) return resolve(mark, true, UNANSWERED_MS);
      mark.outcome = "abandoned";
      series[interfaceOf(mark.category)].settle();
    },
    /** Requests still unanswered 30 s after they arrived fail, as errors taking those 30 s. */
    expire(nowMs: number): void {
      for (const one of Object.values(series)) {
        // Taken first: judging them settles the queue, which may compact it.
        const overdue = [...one.overdue(nowMs - UNANSWERED_MS)];
        for (const mark of overdue) resolve(mark, true, UNANSWERED_MS);
      }
    },
    /** What a flush writes: the counts and windows taken, and how to put them back. */
    take(nowMs: number) {
      const taken = [...counts.values()];
      counts = new Map();
      const windows = (Object.keys(series) as Interface[]).map((which) =>
        [which, series[which].takeWindows(nowMs)] as const);
      return {
        taken,
        rows: windows.flatMap(([which, { closed, open }]) =>
          [...closed, ...open].map((w) => downtimeRow(which, w))),
        putBack() {
          for (const row of taken) mergeInto(counts, row);
          for (const [which, { closed }] of windows) series[which].restore(closed);
        },
      };
    },
  };
}

export type InterfaceRecorder = ReturnType<typeof createInterfaceRecorder>;

export function createInterfaceRecorder(
  deps: StoreDeps<"interfaceStatistics" | "transaction", "clock">,
) {
  const { store, clock } = deps;
  const instanceId = newUuid();
  const measured = createMeasurements();
  // Formatting a date costs more than the rest of a request's accounting: once a day suffices.
  let today = { start: 0, end: 0, day: "" };
  const dayOf = (ms: number): string => {
    if (ms < today.start || ms >= today.end) {
      const start = ms - (ms % DAY_MS);
      today = { start, end: start + DAY_MS, day: new Date(start).toISOString().slice(0, 10) };
    }
    return today.day;
  };

  async function write(taken: DayCounts[], windows: Downtime[]): Promise<void> {
    if (taken.length === 0 && windows.length === 0) return;
    await store.transaction(async (tx) => {
      await store.interfaceStatistics.add(tx, taken);
      await store.interfaceStatistics.recordDowntime(tx, instanceId, windows);
    });
  }

  return {
    /** A request arrived (before anything else is done with it). */
    arrived(category: Category): RequestMark {
      const arrivedMs = clock.now().getTime();
      const mark: RequestMark = { category, day: dayOf(arrivedMs), arrivedMs, outcome: "open",
        answeredMs: 0 };
      measured.series[interfaceOf(category)].arrived(mark);
      return mark;
    },

    /**
     * Its answer went out after `durationMs`. A 5xx, or an answer after 30 s, is an error
     * attributable to the bank; other 4xx are the TPP's (EBA/GL/2018/07 guideline 2.3).
     */
    answered(mark: RequestMark, status: number, durationMs: number): void {
      if (mark.outcome !== "open") return;
      measured.resolve(mark, status >= 500 || durationMs > UNANSWERED_MS, durationMs);
    },

    /** Its client closed the connection before the answer (see the top of this file). */
    abandoned(mark: RequestMark): void {
      if (mark.outcome === "open") measured.abandon(mark, clock.now().getTime());
    },

    /** Whether the interface counts as down now. */
    isDown: (which: Interface) => measured.series[which].isDown(),

    /**
     * Judges the requests unanswered for 30 s, then adds the counts and the windows of downtime
     * to the database in one transaction; what a failed write took is kept for the next.
     */
    async flush(): Promise<void> {
      const nowMs = clock.now().getTime();
      measured.expire(nowMs);
      const flushed = measured.take(nowMs);
      try {
        await write(flushed.taken, flushed.rows);
      } catch (error) {
        flushed.putBack();
        throw error;
      }
    },
  };
}

function downtimeRow(which: Interface, w: Window): Downtime {
  return { interface: which, startedAt: new Date(w.startMs).toISOString(),
    endedAt: new Date(w.endMs).toISOString() };
}

function mergeInto(counts: Map<string, DayCounts>, row: DayCounts): void {
  const key = `${row.day} ${row.category}`;
  const seen = counts.get(key);
  if (!seen) return void counts.set(key, { ...row });
  seen.requests += row.requests;
  seen.errors += row.errors;
  seen.durationUs += row.durationUs;
}
