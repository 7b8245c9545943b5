/**
 * The database's tables as Kysely types. Money columns are integer minor units; SQLite hands
 * them back as numbers and PostgreSQL bigints as strings, so repositories convert with BigInt().
 * Times are ISO-8601 UTC text and dates YYYY-MM-DD text, identical on both engines.
 */
import type { ColumnType, Generated } from "kysely";

type Money = ColumnType<number | string, bigint | number | string, bigint | number | string>;
type Flag = ColumnType<number | boolean, number | boolean, number | boolean>;

export interface TppTable { id: string; name: string; blocked: Flag; created_at: string }

export interface PsuTable {
  id: string;
  login: string;
  name: string;
  password_hash: string;
  status: string;
  failed_attempts: number;
  blocked_until: string | null;
  created_at: string;
  sandbox_behaviour: string | null;
}

export interface ScaDeviceTable {
  id: string;
  psu_id: string;
  kind: string;
  label: string;
  secret: string | null;
  phone: string | null;
  last_totp_step: Money | null;
}

export interface LedgerAccountTable {
  id: string;
  iban: string | null;
  psu_id: string | null;
  kind: string;
  currency: string;
  name: string | null;
  product: string | null;
  cash_account_type: string | null;
  status: string;
  usage: string | null;
  bic: string | null;
  owner_name: string | null;
  debits_posted: Money;
  credits_posted: Money;
  debits_pending: Money;
  credits_pending: Money;
  debits_must_not_exceed_credits: Flag;
  entry_count: Money;
  created_at: string;
  corporate_id: string | null;
  signatures_required: Generated<number>;
}

export interface TransferTable {
  id: string;
  debit_account_id: string;
  credit_account_id: string;
  amount: Money;
  currency: string;
  code: string;
  payment_id: string | null;
  booked_at: string;
  booking_date: string;
  value_date: string;
  end_to_end_id: string | null;
  remittance: string | null;
  debtor_name: string | null;
  debtor_iban: string | null;
  creditor_name: string | null;
  creditor_iban: string | null;
  bank_transaction_code: string | null;
}

/** An entry carries the transfer's columns a statement lists, copied from it when both are
 * inserted (migration 0340). */
export interface EntryTable extends Pick<TransferTable, "value_date" | "booked_at" | "currency"
  | "end_to_end_id" | "remittance" | "debtor_name" | "debtor_iban" | "creditor_name"
  | "creditor_iban" | "bank_transaction_code"> {
  account_id: string;
  seq: Money;
  transfer_id: string;
  amount: Money;
  balance_after: Money;
  booking_date: string;
}

export interface PaymentTable {
  id: string;
  tpp_id: string;
  service: string;
  product: string;
  status: string;
  status_reason: string | null;
  psu_id: string | null;
  debtor_iban: string;
  debtor_currency: string | null;
  creditor_iban: string;
  creditor_currency: string | null;
  creditor_name: string;
  creditor_agent: string | null;
  creditor_address: string | null;
  amount: Money;
  currency: string;
  remittance: string | null;
  end_to_end_id: string | null;
  requested_execution_date: string | null;
  standing_order: string | null;
  executions: ColumnType<number, number | undefined, number>;
  bulk_id: string | null;
  batch_booking: Flag | null;
  redirect_uri: string;
  nok_redirect_uri: string | null;
  created_at: string;
  updated_at: string;
  vop_result: string | null;
  vop_matched_name: string | null;
  vop_overridden_at: string | null;
  initiation_message: string | null;
  signatures_required: Generated<number>;
  signatures: Generated<number>;
  api_version: string | null;
  payment_information_id: string | null;
  creditor_confirmed_at: string | null;
}

export interface ConsentTable {
  id: string;
  tpp_id: string;
  status: string;
  psu_id: string | null;
  access: string;
  recurring: Flag;
  valid_until: string;
  frequency_per_day: number;
  combined: Flag;
  redirect_uri: string;
  nok_redirect_uri: string | null;
  created_at: string;
  updated_at: string;
  authorised_at: string | null;
  kind: string | null;
  signatures_required: Generated<number>;
  signatures: Generated<number>;
  api_version: string | null;
  consent_type: string | null;
}

export interface CorporateTable {
  id: string; corporate_id: string; name: string; created_at: string;
}

export interface CorporateUserTable { corporate_id: string; psu_id: string; may_sign: Flag }

export interface ConsentAccountTable {
  consent_id: string;
  account_id: string;
  balances: Flag;
  transactions: Flag;
}

export interface AuthorisationTable {
  id: string;
  resource_type: string;
  resource_id: string;
  tpp_id: string;
  sca_status: string;
  psu_id: string | null;
  lang: string;
  created_at: string;
  updated_at: string;
  named_psu: string | null;
  approach: Generated<string>;
  /** The RTS article of the exemption taken instead of the second factor, if one was. */
  exemption: string | null;
}

/** A PSU's decision awaiting the TPP's confirmation code (kept as its hash). */
export interface AuthorisationConfirmationTable {
  authorisation_id: string; code_hash: string; psu_id: string; decision: string; attempts: number;
  created_at: string;
}
export interface ExemptionCounterTable { psu_id: string; payments: number; amount: Money }
export interface TrustedPayeeTable {
  psu_id: string; iban: string; name: string; created_at: string;
}
export interface FraudReportTable {
  payment_id: string; reported_at: string; psu_id: string | null; payee_iban: string | null;
}

export interface VopBulkTable {
  id: string; tpp_id: string; status: string; created_at: string; updated_at: string;
}
export interface VopBulkEntryTable {
  bulk_id: string; position: number; request: string; result: string | null;
}

export interface SharedFraudSignalTable { iban: string; shared_by: string; flagged_at: string }
export interface KnownDeviceTable { secret_hash: string; psu_id: string; last_sca_at: string }

export interface PsuAppTable {
  id: string;
  psu_id: string;
  secret_hash: string;
  pin_hash: string;
  csrf: string;
  created_at: string;
  last_used_at: string;
  revoked_at: string | null;
}

export interface OAuthRecordTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  resource_id: string | null;
  expires_at: number | bigint | string | null;
  consumed_at: number | bigint | string | null;
}

export interface ScaSessionTable {
  id: string;
  authorisation_id: string;
  step: string;
  psu_id: string | null;
  device_id: string | null;
  csrf: string;
  lang: string;
  created_at: string;
  last_seen_at: string;
  return_to: string | null;
}

export interface UsedTokenTable { jti: string; expires_at: string }

export interface OtpChallengeTable {
  session_id: string;
  code_hash: string;
  binding: string;
  expires_at: string;
  used_at: string | null;
  sends: Generated<number>;
}

export interface UnknownLoginFailureTable {
  login_key: string;
  failed_attempts: number;
  blocked_until: string | null;
}

export interface SmsOutboxTable {
  id: string;
  psu_id: string;
  phone: string;
  text: string;
  created_at: string;
  seq: Money;
}

export interface IdempotencyTable {
  tpp_id: string;
  request_id: string;
  body_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
}

export interface SecretTable { name: string; value: string }
export interface JobLeaseTable { name: string; holder: string; expires_at: string }

export interface AuditLogTable {
  id: string;
  at: string;
  tpp_id: string | null;
  request_id: string | null;
  psu_ip: string | null;
  method: string;
  path: string;
  resource_id: string | null;
  status: number;
  ms: number;
}

export interface ConsentAccessCountTable {
  consent_id: string;
  account_id: string;
  endpoint: string;
  day: string;
  count: number;
}

export interface TppRequestCountTable { tpp_id: string; window_start: string; count: number }

export interface InterfaceStatisticsTable {
  day: string; category: string; requests: Money; errors: Money; duration_us: Money;
}

export interface InterfaceDowntimeTable {
  instance_id: string; interface: string; started_at: string; ended_at: string;
}

export interface CardAccountTable {
  account_id: string;
  masked_pan: string;
  pan_hash: string;
  credit_limit: Money;
}

export interface CardTransactionDetailsTable {
  transfer_id: string;
  masked_pan: string;
  transaction_date: string;
  acceptor_time: string | null;
  merchant_category_code: string | null;
  card_acceptor_id: string | null;
  card_acceptor_city: string | null;
  card_acceptor_country: string | null;
  original_amount: Money | null;
  original_currency: string | null;
  exchange_rate: string | null;
}

export interface PendingTransactionTable {
  id: string;
  account_id: string;
  amount: Money;
  currency: string;
  transaction_date: string;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  remittance: string | null;
  bank_transaction_code: string | null;
}

export interface ConsentDeltaMarkTable {
  consent_id: string; account_id: string; entry_reference: string;
}

/** A dashboard session: an SCA session that belongs to no authorisation. */
export type PsuSessionTable = Omit<ScaSessionTable, "authorisation_id" | "return_to">;

export interface AuthorisationMethodTable { authorisation_id: string; device_id: string }

export interface NotificationSubscriptionTable {
  resource_id: string;
  resource_type: string;
  tpp_id: string;
  uri: string;
  content: string;
  created_at: string;
  /** "1.3" or "2.4" (NotificationForm). */
  form: Generated<string>;
  resource_path: string | null;
}

export interface NotificationTable {
  id: string;
  resource_id: string;
  position: number;
  tpp_id: string;
  uri: string;
  body: string;
  created_at: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  delivered_at: string | null;
  failed_at: string | null;
  last_error: string | null;
}

export interface SigningBasketTable {
  id: string;
  tpp_id: string;
  status: string;
  psu_id: string | null;
  redirect_uri: string;
  nok_redirect_uri: string | null;
  created_at: string;
  updated_at: string;
  signatures_required: Generated<number>;
  signatures: Generated<number>;
  api_version: string | null;
}

export interface SigningBasketItemTable {
  basket_id: string;
  position: number;
  item_type: string;
  item_id: string;
  /** The item's id while the basket holds it (unique per type), null once released. */
  held_id: string | null;
}

/** The purpose a TPP declared for a consent or payment it created (TPP-Declared-Purpose). */
export interface PermissionPurposeTable {
  resource_id: string; purpose: string; declared_at: string;
}

export interface Database {
  tpps: TppTable;
  psus: PsuTable;
  sca_devices: ScaDeviceTable;
  ledger_accounts: LedgerAccountTable;
  transfers: TransferTable;
  entries: EntryTable;
  payments: PaymentTable;
  consents: ConsentTable;
  consent_accounts: ConsentAccountTable;
  authorisations: AuthorisationTable;
  sca_sessions: ScaSessionTable;
  psu_apps: PsuAppTable;
  oauth_records: OAuthRecordTable;
  used_tokens: UsedTokenTable;
  otp_challenges: OtpChallengeTable;
  sms_outbox: SmsOutboxTable;
  idempotency: IdempotencyTable;
  secrets: SecretTable;
  audit_log: AuditLogTable;
  consent_access_counts: ConsentAccessCountTable;
  job_leases: JobLeaseTable;
  tpp_request_counts: TppRequestCountTable;
  interface_statistics: InterfaceStatisticsTable;
  interface_downtime: InterfaceDowntimeTable;
  card_accounts: CardAccountTable;
  card_transaction_details: CardTransactionDetailsTable;
  consent_delta_marks: ConsentDeltaMarkTable;
  permission_purposes: PermissionPurposeTable;
  pending_transactions: PendingTransactionTable;
  psu_sessions: PsuSessionTable;
  authorisation_methods: AuthorisationMethodTable;
  unknown_login_failures: UnknownLoginFailureTable;
  notification_subscriptions: NotificationSubscriptionTable;
  notifications: NotificationTable;
  exemption_counters: ExemptionCounterTable;
  authorisation_confirmations: AuthorisationConfirmationTable;
  trusted_payees: TrustedPayeeTable;
  fraud_reports: FraudReportTable;
  shared_fraud_signals: SharedFraudSignalTable;
  vop_bulks: VopBulkTable;
  vop_bulk_entries: VopBulkEntryTable;
  known_devices: KnownDeviceTable;
  corporates: CorporateTable;
  corporate_users: CorporateUserTable;
  signing_baskets: SigningBasketTable;
  signing_basket_items: SigningBasketItemTable;
}
