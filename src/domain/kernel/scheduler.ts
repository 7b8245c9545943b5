/**
 * Scheduled work (expiry sweeps, periodic payments) that runs once across all instances on one
 * database: each run first takes the job's lease for its period, and only the winner works.
 */
import { newUuid } from "../../lib/ids.js";
import type { StoreDeps } from "../deps.js";

export interface Scheduler {
  /**
   * Runs `work` if no instance has run `job` in the last `periodMs` (less leaseSlackMs); true when
   * it ran here.
   */
  runOnce(job: string, periodMs: number, work: () => Promise<void>): Promise<boolean>;
  /** Tries `job` every `periodMs` until stop(); a failed run goes to onError, the next comes. */
  every(job: string, periodMs: number, work: () => Promise<void>): void;
  /** Runs `work` every `periodMs` on this instance, for what each instance holds of its own. */
  everyHere(job: string, periodMs: number, work: () => Promise<void>): void;
  stop(): void;
}

/**
 * A lease ends this much before its period: an interval's next tick can come a few milliseconds
 * short of a full period by the wall clock (Node times it from the event loop's cached time, read
 * before the tick that took the lease) and find its own lease a moment from its end: the job
 * skipped that tick (3-4 ticks of 40 at 50 ms). A tenth of the period, at most a second.
 */
export function leaseSlackMs(periodMs: number): number {
  return Math.min(periodMs / 10, 1_000);
}

export function createScheduler(
  { store, clock }: StoreDeps<"transaction" | "leases" | "arrived", "clock">,
  onError: (job: string, error: unknown) => void,
): Scheduler {
  const holder = newUuid();
  const timers: NodeJS.Timeout[] = [];

  async function runOnce(job: string, periodMs: number, work: () => Promise<void>) {
    const now = clock.now();
    const until = new Date(now.getTime() + periodMs - leaseSlackMs(periodMs)).toISOString();
    // In a transaction: on SQLite it joins the group commit, whose wait for the disk it shares,
    // instead of an autocommit waiting for the disk on its own about twice a second.
    const leased = await store.transaction(
      (tx) => store.leases.acquire(tx, job, holder, now.toISOString(), until));
    if (!leased) return false;
    await work();
    return true;
  }

  function repeat(job: string, periodMs: number, run: () => Promise<unknown>): void {
    // A run may outlast its period (a slow TPP endpoint); the next tick here waits for it.
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      store.arrived();
      run().catch((error: unknown) => onError(job, error)).finally(() => { running = false; });
    };
    timers.push(setInterval(tick, periodMs).unref());
  }

  return {
    runOnce,
    every: (job, periodMs, work) => repeat(job, periodMs, () => runOnce(job, periodMs, work)),
    everyHere: repeat,
    stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
    },
  };
}
