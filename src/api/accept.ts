/**
 * Accept negotiation for the endpoints that answer in more than one media type: the first of
 * `offered` is the default (no Accept, a wildcard, or equal preference); an Accept that allows
 * none of them is 406 REQUESTED_FORMATS_INVALID.
 */
import { requestedFormatsInvalid } from "../domain/kernel/errors.js";
import { memoized } from "../lib/memo.js";

interface Range { type: string; subtype: string; q: number }

function parseRange(text: string): Range | undefined {
  const [media = "", ...parameters] = text.split(";").map((part) => part.trim().toLowerCase());
  const [type, subtype] = media.split("/");
  if (!type || !subtype) return undefined;
  const quality = parameters.find((p) => p.startsWith("q="));
  const q = quality === undefined ? 1 : Number(quality.slice(2));
  return { type, subtype, q: Number.isFinite(q) ? q : 0 };
}

/** How much `accept` wants `offer`: the quality of the most specific matching range, or 0. */
function qualityOf(ranges: Range[], offer: string): number {
  const [type, subtype] = offer.split("/");
  const matches = ranges.filter((r) => (r.type === "*" || r.type === type)
    && (r.subtype === "*" || r.subtype === subtype));
  const specificity = (r: Range) => (r.type === "*" ? 0 : 1) + (r.subtype === "*" ? 0 : 1);
  matches.sort((a, b) => specificity(b) - specificity(a));
  return matches[0]?.q ?? 0;
}

/** The offer `accept` prefers, or undefined when it allows none. */
function preferred<T extends string>(accept: string, offered: readonly T[]): T | undefined {
  const ranges = accept.split(",").map(parseRange).filter((r): r is Range => r !== undefined);
  let best: T | undefined;
  let bestQ = 0;
  for (const offer of offered) {
    const q = qualityOf(ranges, offer);
    if (q > bestQ) [best, bestQ] = [offer, q];
  }
  return best;
}

/** A TPP sends the same Accept on every call: each value is judged once per list of offers. */
const judged = new WeakMap<readonly string[], (accept: string) => string | undefined>();

/** The media type to answer in, among `offered` (default first). */
export function negotiate<T extends string>(accept: string | undefined, offered: readonly T[]): T {
  const [fallback] = offered;
  if (fallback === undefined) throw new Error("negotiate needs at least one media type");
  if (accept === undefined || accept.trim() === "") return fallback;
  let judge = judged.get(offered);
  if (!judge) {
    judge = memoized((text: string) => preferred(text, offered));
    judged.set(offered, judge);
  }
  const best = judge(accept) as T | undefined;
  if (best === undefined) throw requestedFormatsInvalid(offered.join(", "));
  return best;
}
