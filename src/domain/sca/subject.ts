/**
 * What the PSU is asked to authorise (a payment, its cancellation, a consent, a signing basket),
 * as every channel sees it: the SCA session machine and its channels (redirect pages, embedded,
 * decoupled app, OAuth) drive a subject and never ask which resource it is. Each resource folder
 * implements it (payment/subject.ts, consent/subject.ts, basket/subject.ts); the subjects are
 * registered where the app is composed (subjects/registry.ts), so sca/ imports none of them.
 */
import type { Tx } from "../kernel/ports.js";
import type { ScaExemption } from "./model.js";
import type { SmsSubject } from "./ports.js";
import type { ScaProblem } from "./problems.js";

/** The outcome of a PSU's decision: taken, or why it was refused. */
export type Decision = { ok: true } | { ok: false; problem: ScaProblem };

/** What a decider reads of the SCA session it is called from. */
export interface DecisionContext {
  session: { psuId: string | null };
  /** Null for an item of a signing basket: the basket's authorisation took the decision. */
  authorisation: { id: string } | null;
}

/**
 * The view models the pages render, by resource: each resource folder adds its own here with
 * `declare module "../sca/subject.js"`, as fastify's decorations do, so the pages can tell them
 * apart by `type` while sca/ only passes them on.
 */
export interface SubjectViews {}

/** What the pages show of a subject (not HTML): a payment, a consent, a basket, as it stands. */
export type SubjectView = SubjectViews[keyof SubjectViews];

/** An account or a card the PSU may grant, named as a TPP names it: by IBAN or masked PAN. */
export interface Grantable {
  id: string;
  reference: string;
  currency: string;
  product: string | null;
  /** How many users of the holding company must sign (multi-level SCA); absent: one. */
  signaturesRequired?: number;
  /** On the review: the PSU's own name for it, and what it holds now (accounts, not cards). */
  name?: string | null;
  availableMinor?: bigint;
}

/** What the review shows besides the subject's view, for the PSU's decision. */
export interface Review {
  /** Why the PSU cannot confirm, if so (e.g. the debtor account is not theirs). */
  problem: ScaProblem | null;
  /** For a consent: the accounts and cards to choose from, and named ones the PSU does not hold. */
  accounts: Grantable[];
  foreign: string[];
  /** For a payment from the PSU's own account: what the PSU's online banking shows of it. */
  debtor: DebtorOverview | null;
  /** For a payment: the day it executes when not at once on confirm (a future date). */
  executesOn: string | null;
  /** The payments whose payee account is the payer's own: no name check to heed (README). */
  ownPayees: string[];
  /**
   * The payments whose payee IBAN is flagged as used for fraud (PSR art. 83, proposal): the
   * review warns before Confirm.
   */
  flaggedPayees: string[];
  /** For a basket: the accounts its payments leave, by IBAN, as online banking names them. */
  debtorNames?: Record<string, AccountName>;
}

/** An account as the bank's online banking names it: the PSU's nickname, else the product. */
export interface AccountName { name: string | null; product: string | null }

/** The account a payment left, on its receipt: its name, and the balance after the booking. */
export interface ReceiptAccount extends AccountName {
  currency: string;
  /** Null until the payment is booked on it (scheduled, refused, a bulk's several bookings). */
  balanceAfterMinor: bigint | null;
}

export interface DebtorOverview extends AccountName {
  availableMinor: bigint;
  currency: string;
  /** The amount exceeds what the account may pay now, overdraft included: the bank would refuse. */
  short: boolean;
}

/**
 * What the PSU decided on the review: for a consent, the accounts (`ibans`) and what each shares;
 * a payee name that did not match needs its tick.
 */
export interface PsuDecision {
  confirm: boolean;
  ibans: readonly string[];
  acknowledgedNoMatch?: boolean;
  balances?: readonly string[];
  transactions?: readonly string[];
}

export interface ScaSubject {
  readonly view: SubjectView;
  /** Whose redirect URIs the PSU's browser goes back to. */
  readonly owner: { redirectUri: string; nokRedirectUri: string | null };
  /** Whether it still waits for this authorisation (not decided, not held by a basket). */
  readonly awaiting: boolean;
  /** Why it no longer waits: a basket holds it, or it was decided. */
  readonly closedProblem: ScaProblem;
  /** What a code is bound to (RTS art. 5 dynamic linking): amounts and payees, or the consent. */
  readonly binding: string;
  /** The bank refused it already as the PSU reached the review (a consent's foreign accounts). */
  readonly refusedAtReview: boolean;
  /** What the SMS carrying a code names (a payment's debtor account by its name). */
  /** `psuId`: the PSU logged in, who gets the code (what the SMS names is theirs alone). */
  sms(tx: Tx, tppName: string, psuId: string): Promise<SmsSubject>;
  /** The subject as it stands now: past its deadline, it is refused first. */
  current(tx: Tx): Promise<ScaSubject>;
  /** Why this PSU may not authorise it at all (another's debtor account), after the password. */
  refusal(tx: Tx, psuId: string): Promise<ScaProblem | null>;
  /** Why this PSU may not decide it (no right to sign, signed already), where no review says so. */
  signingProblem(tx: Tx, psuId: string): Promise<ScaProblem | null>;
  /**
   * The SCA exemption (by its RTS article) this PSU may take on it; `knownDevice` for art. 18.
   * Null where no exemption can ever spare it (a cancellation, a basket, a funds confirmation).
   */
  readonly exemption: ((tx: Tx, psuId: string, knownDevice: () => Promise<boolean>) =>
    Promise<ScaExemption | null>) | null;
  /** The subject's own work once the PSU passed both factors (a consent's foreign accounts). */
  onAuthenticated(tx: Tx, authorisationId: string, psuId: string): Promise<void>;
  /** What the review shows the PSU about to decide. */
  review(tx: Tx, psuId: string): Promise<Review>;
  /** A payment's: the account its receipt names, once decided; the others have no receipt. */
  receipt?(tx: Tx): Promise<ReceiptAccount | null>;
  /** The PSU's decision on the review (or held for, then confirmed by, the TPP). */
  decide(tx: Tx, ctx: DecisionContext, decision: PsuDecision): Promise<Decision>;
  /** Confirmed where there is no review (embedded code, bank app): everything it names. */
  decideWithoutReview(tx: Tx, ctx: DecisionContext, confirm: boolean): Promise<Decision>;
  /** The PSU rejected in the app, or left it unanswered (`timedOut`): refused, not decided. */
  refuseWithoutReview(tx: Tx, ctx: DecisionContext, timedOut: boolean): Promise<void>;
}
