/**
 * The TPP's scaRedirect link, on the PSU's side: looked at without being used up, exchanged for a
 * session by the PSU's first post, and the way back to the TPP when a link or session is gone.
 * The token itself is signed and verified in sca/redirect.ts.
 */
import { newSecret } from "../../lib/ids.js";
import type { Tx } from "../kernel/ports.js";
import type { Deps } from "../deps.js";
import type { SessionContext } from "./context.js";
import { refused, type ScaProblem } from "./problems.js";
import { authorisationContext } from "./redirect-channel.js";
import { openScaSession } from "./session.js";

/**
 * Where the browser goes back to once the decision is taken: the OK URI only when the
 * authorisation succeeded, so that going back never fails an authorisation that succeeded; or,
 * awaiting the TPP's confirmation, the OK URI with the code the TPP confirms with.
 */
export function backToTpp(
  ctx: Pick<SessionContext, "authorisation" | "redirectUri" | "nokRedirectUri">
    & { confirmationCode?: string },
): string {
  const { scaStatus } = ctx.authorisation;
  if (scaStatus === "unconfirmed" && ctx.confirmationCode) {
    return withConfirmationCode(ctx.redirectUri, ctx.confirmationCode);
  }
  return ["finalised", "exempted"].includes(scaStatus)
    ? ctx.redirectUri : ctx.nokRedirectUri ?? ctx.redirectUri;
}

/** Berlin Group's `confirmationCode` query parameter on the TPP's redirect URI. */
export function withConfirmationCode(uri: string, code: string): string {
  const url = new URL(uri);
  url.searchParams.set("confirmationCode", code);
  return url.toString();
}

/** A verified redirect token's claims (sca/redirect.ts). */
export interface RedirectClaims { jti: string; authorisationId: string; expiresAt: string }

/** What a link is for, before any session: the login page shows it. */
export type EntryView = Omit<SessionContext, "session">;

type LinkState =
  | { ok: true; entry: EntryView } | { ok: false; problem: ScaProblem; back?: string };

export function createRedirectLinks(deps: Deps) {
  const { store } = deps;

  /**
   * Whether a genuine link may still open a session: with `spend`, it is used up now (the PSU
   * submitted the entry form), otherwise only looked at (a mail scanner's fetch uses up nothing).
   * A refusal carries the way back to the TPP, which then learns the outcome at once.
   */
  async function linkState(tx: Tx, claims: RedirectClaims, spend: boolean): Promise<LinkState> {
    const fresh = spend ? await store.sca.spendToken(tx, claims.jti, claims.expiresAt)
      : !(await store.sca.tokenSpent(tx, claims.jti));
    const entry = await authorisationContext(deps, tx, claims.authorisationId, ["redirect"]);
    if (!entry) return refused("link_invalid");
    const back = backToTpp(entry);
    if (!fresh) return { ...refused("link_used"), back };
    if (!entry.subject.awaiting) {
      return { ...refused(entry.subject.closedProblem), back };
    }
    return { ok: true, entry };
  }

  const examineLink = (claims: RedirectClaims) =>
    store.transaction((tx) => linkState(tx, claims, false));

  /** Where a PSU whose link expired or whose session ended goes back to, if still known. */
  async function wayBack(authorisationId: string | undefined): Promise<string | undefined> {
    if (!authorisationId) return undefined;
    return store.transaction(async (tx) => {
      const found = await authorisationContext(deps, tx, authorisationId, ["redirect"]);
      return found && backToTpp(found);
    });
  }

  /** Exchanges a verified, unspent redirect token for a fresh session (the cookie's secret). */
  async function openSession(
    claims: RedirectClaims, lang: string,
  ): Promise<{ ok: true; secret: string } | Extract<LinkState, { ok: false }>> {
    return store.transaction(async (tx) => {
      const state = await linkState(tx, claims, true);
      if (!state.ok) return state;
      const secret = newSecret();
      await openScaSession(deps, tx,
        { secret, authorisationId: state.entry.authorisation.id, lang });
      return { ok: true, secret } as const;
    });
  }

  return { examineLink, wayBack, openSession };
}
