/**
 * What the SCA aggregate needs from storage, declared here and implemented by store/sca.ts,
 * store/psu-sessions.ts, store/session-steps.ts and store/psus.ts. Every write that makes a step
 * single-use is a conditional write: the loser of a race gets false and changes nothing.
 */
import type { Tx } from "../kernel/ports.js";
import type {
  Authorisation, LoginSession, Psu, PsuSession, SandboxBehaviour, ScaDevice, ScaExemption,
  ScaSession, ScaStatus,
} from "./model.js";

export interface AuthorisationStatusPort {
  /** One authorisation from one of `from` to `to`; false when its status was none of them. */
  setScaStatus(
    tx: Tx, id: string, from: readonly ScaStatus[], to: ScaStatus, at: string, psuId?: string,
  ): Promise<boolean>;
  /** Every authorisation of a resource whose status is one of `from`; the ids it changed. */
  setScaStatusOf(
    tx: Tx, resourceId: string, from: readonly ScaStatus[], to: ScaStatus, at: string,
  ): Promise<string[]>;
}

export interface AuthorisationPort extends AuthorisationStatusPort {
  insertAuthorisation(tx: Tx, a: Authorisation, at: string): Promise<void>;
  /** Takes back an authorisation still `received` whose start was refused; false otherwise. */
  discardAuthorisation(tx: Tx, id: string): Promise<boolean>;
  findAuthorisation(tx: Tx, id: string): Promise<Authorisation | undefined>;
  authorisationsOf(tx: Tx, resourceId: string):
    Promise<(Authorisation & { createdAt: string; updatedAt: string })[]>;
  /** Records a redirect token's id; false when it was already used (single use). */
  spendToken(tx: Tx, jti: string, expiresAt: string): Promise<boolean>;
  /** Whether a redirect token was used, without using it (a link only looked at). */
  tokenSpent(tx: Tx, jti: string): Promise<boolean>;
  /** Forgets used tokens that expired before `before`; returns how many. */
  forgetTokensExpiredBefore(tx: Tx, before: string): Promise<number>;
  /** Open authorisations of the decoupled approach naming `login` (PSU-ID), oldest first. */
  pendingDecoupled(tx: Tx, login: string): Promise<Authorisation[]>;
  /** Names the PSU of an authorisation that named none yet; false otherwise. */
  namePsu(tx: Tx, id: string, login: string): Promise<boolean>;
  /** Open decoupled authorisations naming a PSU with this sandbox behaviour. */
  pendingDecoupledOfSandbox(tx: Tx, behaviour: SandboxBehaviour): Promise<Authorisation[]>;
  /** Open decoupled authorisations created before `before`: timed out. */
  lateDecoupled(tx: Tx, before: string, limit: number): Promise<Authorisation[]>;
  /** The device the PSU chose for an authorisation (the TPP sees it as chosenScaMethod). */
  chooseMethod(tx: Tx, authorisationId: string, deviceId: string): Promise<void>;
  chosenMethod(tx: Tx, authorisationId: string): Promise<string | undefined>;
}

/** A one-time code sent by SMS; `sends` counts the codes sent to its session so far. */
export interface OtpChallenge {
  codeHash: string;
  binding: string;
  expiresAt: string;
  usedAt: string | null;
  sends: number;
}

/** An amount of money in minor units, in one currency. */
export interface SmsAmount { amountMinor: bigint; currency: string }

/** The account a payment leaves, as the SMS names it: its name and its IBAN, masked. */
export interface SmsAccount { name: string | null; iban: string }

/** What an SMS code authorises: its text names exactly this (RTS art. 5). */
export type SmsSubject =
  | { kind: "payment" | "cancellation"; amount: SmsAmount; payee: string; iban: string;
    from: SmsAccount }
  | { kind: "bulk"; totals: SmsAmount[]; payees: number; from: SmsAccount }
  /** `accounts`: the PSU's the consent names; none when the PSU picks them on the review. */
  | { kind: "consent"; tpp: string; validUntil: string; accounts: SmsAccount[] }
  | { kind: "basket"; totals: SmsAmount[]; payments: number; consents: number }
  | { kind: "dashboard" }
  | { kind: "trustedPayeeAdd" | "trustedPayeeRemove"; payee: string; iban: string };

/**
 * Writes an SMS in the PSU's language, amounts and IBANs as the pages show them; implemented
 * beside the pages' texts (src/sca/sms-texts.ts).
 */
export interface SmsTexts { text(lang: string, subject: SmsSubject, code: string): string }

/** The codes of a login session (of any channel) and the sandbox's SMS outbox. */
export interface ChallengePort {
  /** Replaces the session's code; the new one's `sends` is one more than the old one's. */
  putChallenge(tx: Tx, sessionId: string, c: Omit<OtpChallenge, "sends">): Promise<void>;
  findChallenge(tx: Tx, sessionId: string): Promise<OtpChallenge | undefined>;
  useChallenge(tx: Tx, sessionId: string, at: string): Promise<boolean>;
  sendSms(tx: Tx, sms: { id: string; psuId: string; phone: string; text: string; at: string }):
    Promise<void>;
  smsOf(tx: Tx, psuId: string, limit: number):
    Promise<{ phone: string; text: string; created_at: string }[]>;
}

/** A session's next step and what it learnt on the way (the PSU, the chosen device). */
export interface StepChange<Step extends string> { step: Step; psuId?: string; deviceId?: string }

/** The login sessions of one channel, each at one step. */
export interface LoginSessionPort<S extends LoginSession> {
  find(tx: Tx, id: string): Promise<S | undefined>;
  touch(tx: Tx, id: string, at: string, lang: string): Promise<void>;
  /** Moves the session from one step to the next only once. */
  advance(tx: Tx, id: string, from: S["step"], change: StepChange<S["step"]>): Promise<boolean>;
  /** A new id and CSRF token for the session (and its code): session fixation defence. */
  rename(tx: Tx, id: string, newId: string, csrf: string): Promise<void>;
  remove(tx: Tx, id: string): Promise<void>;
}

export interface ScaSessionPort extends LoginSessionPort<ScaSession> {
  insert(tx: Tx, s: ScaSession, at: string): Promise<void>;
}

export interface PsuSessionPort extends LoginSessionPort<PsuSession> {
  /** Inserts a session and drops the ones idle since before `staleBefore`. */
  insert(tx: Tx, s: PsuSession, at: string, staleBefore: string): Promise<void>;
}

/** A login's failed attempts and the block they caused, for a PSU or for an unknown login. */
export interface LoginFailures { failedAttempts: number; blockedUntil: string | null }

export interface PsuPort {
  find(tx: Tx, id: string): Promise<Psu | undefined>;
  findByLogin(tx: Tx, login: string): Promise<Psu | undefined>;
  recordFailure(tx: Tx, id: string, blockedUntil: string | null): Promise<void>;
  resetFailures(tx: Tx, id: string): Promise<void>;
  devices(tx: Tx, psuId: string): Promise<ScaDevice[]>;
  findDevice(tx: Tx, id: string): Promise<ScaDevice | undefined>;
  /** Consumes a TOTP time step: succeeds only for a step later than any used before. */
  useTotpStep(tx: Tx, deviceId: string, step: bigint): Promise<boolean>;
}

/**
 * Failed logins of names that are no PSU's, counted as a PSU's are, so that the lockout does
 * not tell which logins exist. Keyed by a hash of the name.
 */
export interface UnknownLoginPort {
  failures(tx: Tx, key: string): Promise<LoginFailures | undefined>;
  recordFailure(tx: Tx, key: string, blockedUntil: string | null): Promise<void>;
}

/** The operator's side of the PSUs: enrolment, blocks, new passwords, devices. */
export interface PsuAdministrationPort {
  insert(tx: Tx, psu: Psu, createdAt: string): Promise<void>;
  list(tx: Tx): Promise<Psu[]>;
  setStatus(tx: Tx, id: string, status: Psu["status"]): Promise<void>;
  setPasswordHash(tx: Tx, id: string, passwordHash: string): Promise<void>;
  count(tx: Tx): Promise<number>;
  insertDevice(tx: Tx, d: ScaDevice): Promise<void>;
  /** The PSUs with a demo login among these, sandbox PSUs and scale-test PSUs. */
  findDemo(tx: Tx, logins: readonly string[]): Promise<Psu[]>;
  /** The PSU can never log in again (devices and apps gone); accounts and bookings stay. */
  retire(tx: Tx, id: string, at: string): Promise<void>;
}

/** The bank's app on one of a PSU's devices (decoupled approach), bound by a secret and a PIN. */
export interface PsuApp {
  id: string;
  psuId: string;
  pinHash: string;
  csrf: string;
  createdAt: string;
  lastUsedAt: string;
}

export interface PsuAppPort {
  insert(tx: Tx, app: PsuApp, secretHash: string): Promise<void>;
  /** The app a secret binds, unless revoked. */
  findBySecret(tx: Tx, secretHash: string): Promise<PsuApp | undefined>;
  /** The PSU's apps not revoked, oldest first. */
  listOf(tx: Tx, psuId: string): Promise<PsuApp[]>;
  /** Revokes one of the PSU's own apps; false when it is not the PSU's or revoked already. */
  revoke(tx: Tx, id: string, psuId: string, at: string): Promise<boolean>;
  touch(tx: Tx, id: string, at: string): Promise<void>;
}

/** What a PSU paid without a second factor since its last SCA (RTS art. 16). */
export interface SpentSinceSca { payments: number; amountMinor: bigint }

/** A payee the PSU trusts (RTS art. 13): a payment to it needs no second factor. */
export interface TrustedPayee { iban: string; name: string; createdAt: string }

/** The SCA exemptions' records (RTS 2018/389), implemented by store/exemptions.ts. */
export interface ExemptionPort {
  /** Which exemption an authorisation took instead of the second factor. */
  recordExemption(tx: Tx, authorisationId: string, exemption: ScaExemption): Promise<void>;
  spentSinceSca(tx: Tx, psuId: string): Promise<SpentSinceSca>;
  /**
   * Counts one more payment without a second factor; with `limits`, only while the total
   * (this payment included) stays within them: false, and nothing counted, otherwise.
   */
  spendWithoutSca(tx: Tx, psuId: string, amountMinor: bigint,
    limits?: Partial<SpentSinceSca>): Promise<boolean>;
  /** An SCA of the PSU: nothing spent since. */
  resetSpent(tx: Tx, psuId: string): Promise<void>;
  trustedPayees(tx: Tx, psuId: string): Promise<TrustedPayee[]>;
  trust(tx: Tx, psuId: string, payee: TrustedPayee): Promise<void>;
  /** False when the PSU did not trust this IBAN. */
  distrust(tx: Tx, psuId: string, iban: string): Promise<boolean>;
  /** When the PSU last passed SCA (not an exemption) for a consent of this TPP. */
  lastConsentSca(tx: Tx, tppId: string, psuId: string): Promise<string | undefined>;
  /**
   * Remote credit transfers executed since `since` (RTS art. 19: the last 90 days): the total
   * amount of all, and of those the PSU reported as fraud.
   */
  fraudVolumes(tx: Tx, since: string): Promise<{ all: bigint; fraud: bigint }>;
  /** A browser the PSU passed SCA in, by its cookie's hash. */
  rememberDevice(tx: Tx, secretHash: string, psuId: string, at: string): Promise<void>;
  isKnownDevice(tx: Tx, secretHash: string, psuId: string): Promise<boolean>;
}

/** A PSU's decision held for the TPP's confirmation code (AUTHORISATION_CONFIRMATION). */
export interface PendingConfirmation {
  authorisationId: string;
  /** The code's hash; the code itself is never stored. */
  codeHash: string;
  psuId: string;
  /** The PSU's decision on the review, as JSON. */
  decision: string;
  /** Wrong codes sent so far. */
  attempts: number;
}

/** Implemented by store/confirmations.ts. */
export interface ConfirmationPort {
  hold(tx: Tx, pending: Omit<PendingConfirmation, "attempts">, at: string): Promise<void>;
  find(tx: Tx, authorisationId: string): Promise<PendingConfirmation | undefined>;
  /** Uses up the code (single use): false when it was taken meanwhile or the hash differs. */
  take(tx: Tx, authorisationId: string, codeHash: string): Promise<boolean>;
  /** One more wrong code; answers the attempts so far. */
  countAttempt(tx: Tx, authorisationId: string): Promise<number>;
  drop(tx: Tx, authorisationId: string): Promise<void>;
}
