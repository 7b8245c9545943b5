/**
 * The published statistics of the dedicated interface (RTS art. 32(4), EBA/GL/2018/07
 * guidelines 2 and 3): what is counted, and the store's side of it.
 */
import type { Tx } from "../kernel/ports.js";

/** The dedicated interface's request categories, and the PSU's own pages to compare them with. */
export const CATEGORIES = ["AIS", "PIS", "PIIS", "PSU"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The interface a category is served by; availability is the interface's, not a category's. */
export type Interface = "dedicated" | "psu";
export const interfaceOf = (category: Category): Interface =>
  category === "PSU" ? "psu" : "dedicated";

/** One UTC day's figures of a category, as added up: each instance adds its share. */
export interface DayCounts {
  day: string;
  category: Category;
  requests: number;
  /** Answers attributable to the bank: 5xx, or none within 30 s. */
  errors: number;
  /** The requests' time to answer, summed, in microseconds. */
  durationUs: number;
}

/** A window in which one instance saw an interface down (ISO-8601 UTC instants). */
export interface Downtime { interface: Interface; startedAt: string; endedAt: string }

export interface InterfaceStatisticsPort {
  /** Adds each row to its day and category, concurrently with other instances. */
  add(tx: Tx, counts: readonly DayCounts[]): Promise<void>;
  /** Records the windows of one instance; a window already recorded only grows. */
  recordDowntime(tx: Tx, instanceId: string, windows: readonly Downtime[]): Promise<void>;
  counts(tx: Tx, fromDay: string, toDay: string): Promise<DayCounts[]>;
  /** The first day anything was counted; null before the first flush. */
  firstDay(tx: Tx): Promise<string | null>;
  /** Every instance's windows that overlap [from, to). */
  downtime(tx: Tx, from: string, to: string): Promise<Downtime[]>;
}
