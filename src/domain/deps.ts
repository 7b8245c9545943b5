/**
 * What the use cases receive from the composition root (src/app/): plain arguments, no container.
 */
import type { Clock } from "../lib/clock.js";
import type { ScaApproach } from "../lib/sca-approaches.js";
import type { BasketRepository } from "./basket/ports.js";
import type { AccessCountPort, ConsentRepository, DeltaMarkPort } from "./consent/ports.js";
import type { CoreBanking } from "./account-information/core-banking.js";
import type { NotificationPort } from "./notification/ports.js";
import type { PaymentRepository } from "./payment/ports.js";
import type { PermissionPort } from "./dashboard/ports.js";
import type {
  AuditPort, IdempotencyPort, LeasePort, OAuthRecordPort, SavepointPort, TppPort, Tx,
} from "./kernel/ports.js";
import type { Authorisation, AuthorisedResource, ResourceType } from "./sca/model.js";
import type { ScaSubject } from "./sca/subject.js";
import type { InterfaceStatisticsPort } from "./statistics/ports.js";
import type { PayeeVerification } from "./vop/verification.js";
import type { FraudSignalPort } from "./fraud/ports.js";
import type { VopBulkPort } from "./vop/ports.js";
import type {
  AuthorisationPort, ChallengePort, ConfirmationPort, ExemptionPort, PsuAdministrationPort,
  PsuAppPort, PsuPort, PsuSessionPort, ScaSessionPort, SmsTexts, UnknownLoginPort,
} from "./sca/ports.js";

/** The settings the domain reads, each given by src/config.ts, where its default is declared. */
export interface DomainSettings {
  timeZone: string;
  bankName: string;
  smsCodeTtlSeconds: number;
  scaSessionIdleSeconds: number;
  loginFailuresMax: number;
  loginBlockSeconds: number;
  /** PSU passwords one TPP may have checked at once (embedded approach); 0: no limit. */
  tppConcurrentPasswordChecks: number;
  consentValidityDaysMax: number;
  frequencyPerDayMax: number;
  /** A consent the PSU has not authorised after this long is rejected. */
  consentAuthorisationMinutes: number;
  /** A payment not authorised within this time after its creation is rejected (RJCT). */
  paymentScaTimeoutSeconds: number;
  /** The most payments one bulk payment may carry. */
  bulkPaymentEntriesMax: number;
  /** A payment to another bank is ACSP until this long after its booking, then ACCC; 0: ACSC. */
  clearingSettlementSeconds: number;
  /** A decoupled request the PSU leaves unanswered this long fails. */
  decoupledTimeoutSeconds: number;
  /**
   * AUTHORISATION_CONFIRMATION: a PSU's confirmation on the bank's pages decides only once the
   * TPP sends the code the redirect back carried.
   */
  authorisationConfirmation: boolean;
  /** Sandbox mode: test PSUs' behaviours apply (Psu.sandbox); never in production. */
  sandbox: boolean;
  /** The SCA exemptions the bank applies (README, SCA exemptions); besides art. 10a, always. */
  exemptions: ExemptionSettings;
}

export interface ExemptionSettings {
  /** RTS art. 13. */
  trustedPayees: boolean;
  /** RTS art. 16: off, or which limit since the last SCA. */
  lowValue: "off" | "amount" | "count";
  /** RTS art. 18. */
  transactionRisk: boolean;
}

/** Mints the PSU's redirect link; implemented by src/sca/redirect.ts (signed, single-use token). */
export interface ScaLinks {
  scaRedirect(link: {
    authorisationId: string;
    resourceType: ResourceType;
    redirectUri: string;
    nokRedirectUri: string | null;
    lang: string;
  }): Promise<string>;
}

export interface Passwords {
  /** With a null hash it still spends the time of a verification, then answers false. */
  verify(hash: string | null, password: string): Promise<boolean>;
  /** A new hash (argon2id) of a secret the PSU chose, such as the bank app's PIN. */
  hash(secret: string): Promise<string>;
}

/**
 * The store as the domain sees it: every repository is a port the domain declares, per
 * aggregate (payment/ports.ts, consent/ports.ts, sca/ports.ts) or shared (ports.ts). The store
 * implements them; a bank may plug in its own.
 */
export interface StorePort {
  payments: PaymentRepository;
  consents: ConsentRepository;
  baskets: BasketRepository;
  accessCounts: AccessCountPort;
  deltaMarks: DeltaMarkPort;
  sca: AuthorisationPort & ChallengePort;
  scaSessions: ScaSessionPort;
  psuSessions: PsuSessionPort;
  psuApps: PsuAppPort;
  /** The OAuth authorisation server's grants, codes and tokens. */
  oauthRecords: OAuthRecordPort;
  psus: PsuPort & PsuAdministrationPort;
  unknownLogins: UnknownLoginPort;
  exemptions: ExemptionPort;
  /** PSUs' fraud reports and the flagged payee identifiers (PSR arts. 83, 89, proposal). */
  fraudSignals: FraudSignalPort;
  /** TPPs' bulks of payee checks (Verification of Party 1.1). */
  vopBulks: VopBulkPort;
  /** Decisions held for the TPP's confirmation code. */
  confirmations: ConfirmationPort;
  /** The permission dashboard: declared purposes, the history's purge (PSR). */
  permissions: PermissionPort;
  /** The published statistics of the dedicated interface. */
  interfaceStatistics: InterfaceStatisticsPort;
  tpps: TppPort;
  idempotency: IdempotencyPort;
  audit: AuditPort;
  leases: LeasePort;
  notifications: NotificationPort;
  savepoints: SavepointPort;
  /** The database outside any transaction: for reads, and for writes that stand alone. */
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * A transaction whose last statement is `claim`, an insert that does nothing when its key is
   * taken (an idempotency record): the work's writes are kept only when the claim answers true.
   * Answers the work's value, or undefined when the key was taken. The store may send a work of
   * plain inserts together with its claim.
   */
  claimedTransaction<T>(
    work: (tx: Tx) => Promise<T>, claim: (tx: Tx, value: T) => Promise<boolean>,
  ): Promise<{ value: T } | undefined>;
  /**
   * A write nothing was answered on the strength of (the audit log), or whose loss only repeats
   * an answer (a delta list's mark): commits without waiting for the disk. No cached read may
   * read what it writes.
   */
  writeLog(work: (tx: Tx) => Promise<void>): Promise<void>;
  /**
   * A request arrived or a scheduled job starts: the shared reads from here on count every commit
   * made before it, by any process.
   */
  arrived(): void;
}

/**
 * One kind of resource a PSU authorises, by the authorisation's resourceType: how its subject is
 * loaded, and what follows once it is decided (a basket carries out its items).
 */
export interface SubjectType {
  /** What the SMS carrying its code names, as the embedded challenge tells the PSU. */
  smsNames: string;
  load(deps: Deps, tx: Tx, a: Authorisation): Promise<ScaSubject | undefined>;
  /** After the decision's transaction committed. */
  afterDecision?(deps: Deps, resourceId: string): Promise<void>;
  /** The periodic sweep for what a crash left half done after a decision. */
  sweep?(deps: Deps): Promise<unknown>;
}

/** The subjects, registered where the app is composed (subjects/registry.ts). */
export type ScaSubjects = Readonly<Record<AuthorisedResource, SubjectType>>;

export interface Deps {
  store: StorePort;
  core: CoreBanking;
  clock: Clock;
  settings: DomainSettings;
  scaLinks: ScaLinks;
  passwords: Passwords;
  /** Verification of Payee: this bank's payees, and other banks' through the scheme port. */
  vop: PayeeVerification;
  smsTexts: SmsTexts;
  subjects: ScaSubjects;
}

/**
 * Deps whose store is narrowed to the repositories `R` a use case works with (db and transaction
 * only where named), with the other Deps `K` it uses.
 */
export type StoreDeps<R extends keyof StorePort, K extends Exclude<keyof Deps, "store"> = never> =
  Pick<Deps, K> & { store: Pick<StorePort, R> };

/** The calling TPP as the domain needs it: its tenant key and display name. */
export interface TppRef { id: string; name: string }

/** Where the PSU's browser goes afterwards, from the TPP's headers. */
export interface RedirectTargets {
  redirectUri: string; nokRedirectUri: string | null; lang: string;
  /** The PSU the TPP named (PSU-ID), who alone may authorise. */
  namedPsu?: string | null;
  /** Who carries the PSU's factors; redirect unless the TPP and the bank chose otherwise. */
  approach?: ScaApproach;
}

/** How an authorisation the TPP starts later is carried out; the URIs are the resource's. */
export type LaterSca = Omit<RedirectTargets, "redirectUri" | "nokRedirectUri">;
