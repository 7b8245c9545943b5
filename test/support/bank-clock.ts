/**
 * The clock of a test bank that brings none of its own: the system's time, which the TOTP helper
 * may move forward. The bank accepts a code of the current time step or its neighbours and never
 * the same step twice for a device, so a PSU has three codes per 30-second window; a test that
 * needs a fourth would otherwise wait up to 30 s for the next window, with the bank idle.
 */
import type { Clock } from "../../src/lib/clock.js";

export interface SkippingClock extends Clock {
  /** Moves this bank's time forward; it never goes back, as a real clock never does here. */
  skip(ms: number): void;
}

export function skippingClock(): SkippingClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    skip: (ms) => {
      if (ms < 0) throw new Error(`a bank's clock only moves forward: ${ms} ms`);
      offset += ms;
    },
  };
}

export const isSkipping = (clock: Clock): clock is SkippingClock => "skip" in clock;

const byUrl = new Map<string, SkippingClock>();

/** Lets helpers that know only a bank's PSU address find its clock. */
export function registerBankClock(authUrl: string, clock: SkippingClock): () => void {
  byUrl.set(authUrl, clock);
  return () => { byUrl.delete(authUrl); };
}

export const bankClockAt = (authUrl: string): SkippingClock | undefined => byUrl.get(authUrl);
