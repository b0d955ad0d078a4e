import type { ColumnType, Generated } from 'kysely';
import type { IccStatus } from '../../shared/icc/values';

// Table types for Kysely. Times are epoch milliseconds (INTEGER); money integer cents; quantities whole tons.

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  type: 'personal' | 'corporate';
  company: string;
  uen: string;
  first_name: string;
  last_name: string;
  ic_number: string;
  mobile: string;
  avatar: string;
  invite_code: string;
  invited_by: number | null;
  grade: number;
  credit_score: 'excellent' | 'medium' | 'poor';
  risk: number;
  disabled: number;
  login_fails: number;
  login_locked: number;
  withdraw_password_hash: string | null;
  trade_fails: number;
  trade_locked: number;
  lang: Generated<'en' | 'cn'>;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number | null; // null: a visitor session
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  revoked_at: number | null;
  /** The organisation's account the session acts for (a member's organisation context); null: the
   *  login's own account. Each request checks the membership again (modules/session.ts). */
  acting_for: ColumnType<number | null, number | null | undefined, number | null>;
}

export type OrgRole = 'owner' | 'admin' | 'buyer' | 'approver' | 'viewer';

/** An organisation: 1:1 with its corporate account (users.id), which holds its ledger accounts. */
export interface OrganisationsTable {
  account_id: number;
  name: string;
  uen: string;
  /** JSON of the organisation's settings. */
  settings: string;
  created_at: number;
}

/** A retirement or withdrawal waiting for an approver (docs/product.md#approvals). */
export interface ApprovalRequestsTable {
  id: Generated<number>;
  account_id: number;
  maker_id: number;
  kind: 'retire' | 'withdraw';
  project_id: number | null;
  tons: number;
  amount: number;
  /** The withdrawal's fee, held with its amount. */
  fee: number;
  /** JSON: the request's other fields (beneficiary, reason, hide_beneficiary; method). */
  input: string;
  status: 'waiting' | 'approved' | 'declined' | 'expired';
  decided_by: number | null;
  /** JSON: what the approval made (the certificate's or the withdrawal's id). */
  result: string;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
}

export interface OrganisationMembersTable {
  account_id: number;
  user_id: number;
  role: OrgRole;
  created_at: number;
}

export interface OrganisationInvitationsTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  role: Exclude<OrgRole, 'owner'>;
  /** SHA-256 of the link's token: the token itself is only in the mail. */
  token_hash: string;
  invited_by: number;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: number | null;
  revoked_at: number | null;
}

export interface OrganisationActivityTable {
  id: Generated<number>;
  account_id: number;
  member_id: number;
  /** The endpoint's action name ('order.buy', 'wallet.withdraw', 'org.invite'...). */
  action: string;
  /** JSON: the request's fields (secrets dropped) and what it made. */
  detail: string;
  created_at: number;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  email: string;
  scene: 'register' | 'reset';
  code_hash: string;
  tries: number;
  ip: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface OutboxTable {
  id: Generated<number>;
  to_email: string;
  subject: string;
  body: string;
  created_at: number;
  sent_at: number | null;
  error: string | null;
  receipt_id: number | null; // a receipt's mail (written in the event's transaction, sent by the mail job)
  attempted_at: number | null; // when the mail job claimed it (recorded before the send: at most once)
}

export interface ReceiptCountersTable {
  owner_id: number;
  last: number;
}

export interface ReceiptsTable {
  id: Generated<number>;
  owner_id: number;
  number: number;
  entry_id: number;
  kind: 'purchase' | 'booking' | 'final_payment' | 'sale' | 'retirement' | 'topup' | 'withdrawal';
  ref_type: string;
  ref_id: number;
  total: number;
  fee: number;
  tons: number;
  created_at: number;
}

export interface RateEventsTable {
  id: Generated<number>;
  kind: string;
  ip: string;
  created_at: number;
}

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  name_cn: string;
  location: string;
  type: string;
  standard: string;
  status: 'pending_review' | 'presale' | 'in_progress' | 'closed';
  price: number;
  presale_price: number | null;
  min_tons: number;
  max_tons: number;
  total_tons: number;
  remaining_tons: number;
  selling_time: number;
  end_time: number;
  cycle_value: number;
  cycle_unit: 'days' | 'hours' | 'minutes';
  yield_bp: number;
  required_grade: number;
  monthly_limit: number;
  total_limit: number;
  company: string;
  registry_id: string;
  methodology: string;
  vintage: number;
  /** Migration 012: the registry that lists it (Verra, Gold Standard) and its country. */
  registry: ColumnType<string, string | undefined, string>;
  country: ColumnType<string, string | undefined, string>;
  /** Migration 020: the place and the country in Chinese ('' when not given: the English is shown). */
  location_cn: ColumnType<string, string | undefined, string>;
  country_cn: ColumnType<string, string | undefined, string>;
  /** Migration 022: the facts the Singapore carbon tax judges credits by ('' or 'unknown' when not known;
   *  docs/product.md#singapore-carbon-tax). */
  host_country: ColumnType<string, string | undefined, string>;
  programme: ColumnType<string, string | undefined, string>;
  methodology_id: ColumnType<string, string | undefined, string>;
  methodology_date: ColumnType<string, string | undefined, string>;
  reduction_start: ColumnType<number | null, number | null | undefined, number | null>;
  reduction_end: ColumnType<number | null, number | null | undefined, number | null>;
  authorisation: ColumnType<IccStatus, IccStatus | undefined, IccStatus>;
  authorisation_ref: ColumnType<string, string | undefined, string>;
  adjustment: ColumnType<IccStatus, IccStatus | undefined, IccStatus>;
  adjustment_ref: ColumnType<string, string | undefined, string>;
  size_ha: number;
  image: string;
  intro: string;
  intro_cn: string;
  created_at: number;
  updated_at: number;
  /** The list's status order, computed by the database from `status` (migration 006): read-only. */
  list_rank: ColumnType<number, never, never>;
  /** When the scheduler next moves it by time (null: never), computed by the database (migration 008): read-only. */
  due_at: ColumnType<number | null, never, never>;
  /** Migration 041: units of its registry blocks (kept by the inventory service), and units of its retirements
   *  cancelled on the registry (docs/decisions/0041-registry-inventory.md). */
  block_tons: ColumnType<number, number | undefined, number>;
  cancelled_tons: ColumnType<number, number | undefined, number>;
  /** When a registry reconciliation stopped its sales (migration 043), null while it sells. */
  sales_paused_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** What that reconciliation found, for the operator. */
  sales_paused_note: ColumnType<string, string | undefined, string>;
}

/** Projects per (list_rank, type), kept by triggers on projects (migration 006): the list's totals. */
export interface ProjectListCountsTable {
  list_rank: number;
  type: string;
  n: number;
}

export interface NewsTable {
  id: Generated<number>;
  title: string;
  title_cn: string;
  summary: string;
  summary_cn: string;
  body: string;
  body_cn: string;
  image: string;
  published_at: number;
  created_at: number;
}

export interface FaqsTable {
  id: Generated<number>;
  question: string;
  question_cn: string;
  answer: string;
  answer_cn: string;
  sort: number;
}

export interface PagesTable {
  slug: string;
  title: string;
  title_cn: string;
  body: string;
  body_cn: string;
  updated_at: number;
}

export interface BannersTable {
  id: Generated<number>;
  title: string;
  title_cn: string;
  image: string;
  link: string;
  sort: number;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  title_cn: string;
  body: string;
  body_cn: string;
  created_at: number;
  read_at: number | null;
  /** The app screen the notice opens (inbox and push), e.g. /pages/order/detail?id=12; null: the inbox. */
  url: Generated<string | null>;
}

/** A device that turned notifications on (migration 023, docs/decisions/0033-web-push.md). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  /** The account whose notices it receives: the organisation's for a member acting for one. */
  user_id: number;
  /** The person who turned it on (their login): the account itself unless a member acting for an
   *  organisation did. Removing the member, or her password change, ends the device. */
  person_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The language its pushes are written in: the request's when it was turned on. */
  lang: 'en' | 'cn';
  created_at: number;
}

/** A notice still to push to one device, written with the notice (live/notices.ts, live/push-sender.ts). */
export interface PushQueueTable {
  id: Generated<number>;
  subscription_id: number;
  notification_id: number;
  attempts: Generated<number>;
  next_at: number;
  claimed_until: Generated<number>;
  created_at: number;
}

/** Each reminder the scheduler sent, once per order and kind (final payment due in 24 h, in 2 h). */
export interface NoticeRemindersTable {
  order_id: number;
  kind: string;
  created_at: number;
}

/** An account's webhook receiver (migration 046, docs/decisions/0044-webhooks.md). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  /** The account whose events it receives (users.id: a person's, or an organisation's account). */
  owner_id: number;
  mode: 'live' | 'test';
  url: string;
  /** JSON array of event types. */
  events: string;
  /** The signing key, base64 (shown once as whsec_<it>). */
  secret: string;
  /** The key before the last rotation: deliveries are signed with it too until previous_until. */
  previous_secret: string | null;
  previous_until: number | null;
  created_by: number;
  created_at: number;
  /** Set when deliveries kept failing for the whole retry schedule: nothing is sent to it. */
  disabled_at: number | null;
}

/** One event, written in the transaction of its effect (webhook/outbox.ts). */
export interface WebhookEventsTable {
  id: Generated<number>;
  /** The webhook-id of every delivery of it (msg_...). */
  msg_id: string;
  owner_id: number;
  mode: 'live' | 'test';
  type: string;
  /** JSON: the body every endpoint receives ({ type, timestamp, data }). */
  payload: string;
  created_at: number;
}

/** One event to one endpoint: the outbox row a sender claims (webhook/sender.ts). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_at: number;
  claimed_until: Generated<number>;
  created_at: number;
  settled_at: number | null;
}

/** One HTTP try of a delivery: the delivery log. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  endpoint_id: number;
  attempt: number;
  /** The receiver's answer; 0: none (refused address, timeout, connection error). */
  status_code: number;
  latency_ms: number;
  error: string | null;
  created_at: number;
}

/** Events for the live socket: written by the server or by the operator CLI, pushed by the hub. */
export interface LiveEventsTable {
  id: Generated<number>;
  user_id: number | null; // null: everyone
  payload: string; // JSON ServerMessage
  created_at: number;
}

export interface OperatorLogTable {
  id: Generated<number>;
  command: string;
  args: string;
  actor: string;
  ok: number;
  result: string;
  created_at: number;
  /** The row a change touched ('project:12', 'user:7', 'notice:all'); '' for commands that change nothing. */
  target: ColumnType<string, string | undefined, string>;
  /** Its fields as JSON before and after the change (null before a create, after a withdrawal). */
  before: ColumnType<string | null, string | null | undefined, string | null>;
  after: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row per balance: a user's (available, frozen, credits, presale, unavailable) or a platform account. */
export interface LedgerAccountsTable {
  id: Generated<number>;
  owner_id: number; // users.id, or 0 for platform accounts
  name: string;
  unit: 'cents' | 'tons';
  balance: number;
}

/** Every change of a balance. Never updated or deleted. Rows of one entry sum to zero per unit. */
export interface FundLogsTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  owner_id: number;
  account_name: string;
  unit: 'cents' | 'tons';
  kind: string;
  amount: number;
  balance_after: number;
  ref_type: string;
  ref_id: number;
  memo: string;
  created_at: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  kind: string;
  created_at: number;
}

export interface IdempotencyKeysTable {
  id: Generated<number>;
  /** The account the request acts for. */
  user_id: number;
  /** Who within the account sent it: '' its own login, 'member:<id>' a member acting for the organisation
   *  (migration 036). */
  scope: Generated<string>;
  key: string;
  endpoint: string;
  request_hash: string;
  state: 'pending' | 'committed' | 'done';
  response: string | null;
  created_at: number;
}

export type OrderSide = 'buy' | 'sell';
export type OrderKind = 'purchase' | 'presale' | 'sell';
export type OrderStatus = 'applying' | 'in_progress' | 'completed' | 'pending_final_payment' | 'final_payment_made' | 'final_payment_expired';

/** Per user, project and Singapore month of the orders' creation: the tons of buy orders that count towards
 *  the project's limits (not expired; a pre-sale's final tons once allocated). Migration 018. */
export interface OrderUsageTable {
  user_id: number;
  project_id: number;
  month_start: number;
  tons: number;
}

/** Marketplace orders (migration 004): purchases, pre-sale bookings and sell-backs. */
export interface OrdersTable {
  id: Generated<number>;
  order_no: string;
  user_id: number;
  project_id: number;
  side: OrderSide;
  kind: OrderKind;
  status: OrderStatus;
  unit_price: number; // cents per ton: purchase price, pre-sale price, or buy-back price
  tons: number; // bought, booked or sold
  total: number; // cents: tons x unit_price (sell: the proceeds)
  booking_fee: Generated<number>;
  final_unit_price: number | null;
  final_tons: number | null;
  final_amount: number | null; // what the final payment takes from available
  final_deadline: number | null;
  cycle_end: number | null;
  presale_tons: Generated<number>; // sell: how many of the sold tons were of pre-sale origin
  settle_at: number | null;
  settled_at: number | null;
  completed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Tons of carbon credits a user holds per project and origin; sums to the ledger's credits balance. */
export interface CreditHoldingsTable {
  user_id: number;
  project_id: number;
  origin: 'purchase' | 'presale';
  tons: number;
  updated_at: number;
}

/** The payout account a user binds (one per user): a bank account, a PayNow number, or both. */
export interface BankAccountsTable {
  id: Generated<number>;
  user_id: number;
  bank_name: string;
  account_no: string;
  holder_name: string;
  paynow: string;
  created_at: number;
  updated_at: number;
}

export interface TopupsTable {
  id: Generated<number>;
  user_id: number;
  amount: number;
  method: 'paynow' | 'bank';
  reference: string;
  status: 'pending' | 'credited' | 'rejected';
  sgt_date: string; // YYYY-MM-DD in SGT of created_at
  note: string;
  created_at: number;
  updated_at: number;
  decided_at: number | null;
  /** Migration 013: the reference as matched (upper case, no spaces), unique; null for a top-up
   *  made for a second payment or assigned by hand. */
  ref_key: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: ColumnType<number | null, number | null | undefined, number | null>;
  flag: ColumnType<TopupFlag, TopupFlag | undefined, TopupFlag>;
  first_topup_id: ColumnType<number | null, number | null | undefined, number | null>;
  received_amount: ColumnType<number | null, number | null | undefined, number | null>;
}

export type TopupFlag = '' | 'amount' | 'late' | 'double' | 'manual';

/** A credit line of an imported bank statement (docs/product.md#top-ups); `identity` is unique: credited once, ever. */
export interface StatementLinesTable {
  id: Generated<number>;
  identity: string;
  format: string;
  booked_on: string;
  description: string;
  amount: number;
  balance: number | null;
  bank_ref: string;
  status: 'matched' | 'flagged' | 'unmatched' | 'assigned';
  topup_id: number | null;
  user_id: number | null;
  note: string;
  created_at: number;
  decided_at: number | null;
}

/** A withdrawal keeps a copy of the payout account it was made to. */
export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  amount: number;
  fee: number;
  method: 'bank' | 'paynow';
  bank_name: string;
  account_no: string;
  holder_name: string;
  paynow: string;
  status: 'processing' | 'refused' | 'completed';
  sgt_date: string;
  note: string;
  created_at: number;
  updated_at: number;
  decided_at: number | null;
}

/** Saved carbon footprint results (migration 007); answers and breakdown are JSON text. */
export interface FootprintsTable {
  id: Generated<number>;
  user_id: number;
  answers: string; // FootprintAnswers
  total_kg: number; // whole kg CO2e a year, computed by the server
  breakdown: string; // FootprintBreakdown: kg per category
  factors_version: string; // factors.json version that computed it
  created_at: number;
}

/** A retirement of credits on a beneficiary's behalf (migration 012). `id`: 128 random bits,
 *  base64url; the public certificate is found by it. Never updated or deleted. */
export interface RetirementsTable {
  id: string;
  user_id: number;
  project_id: number;
  tons: number;
  beneficiary: string;
  reason: string;
  beneficiary_hidden: number; // 1: the public certificate shows "a Canopy customer" and no reason
  entry_id: number; // the ledger entry that moved the tons to the project's retirement account
  created_at: number;
  /** Migration 029: the Singapore carbon-tax compliance year it is surrendered for (null: none), and the
   *  rules version that found its credits eligible then. */
  icc_year: ColumnType<number | null, number | null | undefined, never>;
  icc_rules_version: ColumnType<string, string | undefined, never>;
}

/** Migration 029: an account's taxable emissions per compliance year (docs/product.md#singapore-carbon-tax). */
export interface IccEmissionsTable {
  user_id: number;
  year: number;
  taxable_tons: number;
  updated_at: number;
}

/** Migration 029: every evidence pack issued, by the SHA-256 of its bytes (hex). */
export interface IccPacksTable {
  hash: string;
  user_id: number;
  format: 'pdf' | 'csv';
  period_from: string;
  period_to: string;
  lang: string;
  created_at: number;
}

/** Migration 032: the verdict a surrender for Singapore carbon tax was judged with, in the retirement's own
 *  transaction (docs/product.md#singapore-carbon-tax). One row per retirement with an icc_year; never
 *  updated or deleted. */
export interface RetirementIccTable {
  retirement_id: string;
  verdict: 'eligible' | 'not_eligible' | 'unknown';
  /** JSON: IccReason[] ({code, source}), as the engine gave them. */
  reasons: string;
  rules_version: string;
}

/** A range of a project's serial sequences (1..total_tons) that one retirement took. */
export interface RetirementSerialsTable {
  retirement_id: string;
  project_id: number;
  first_seq: number;
  last_seq: number;
}

/** Migration 040: a block of units the platform holds in a registry account (docs/product.md#registry-inventory).
 *  `serial_range` as the registry writes it; units first_unit..last_unit inclusive; `series` the registry and
 *  the fixed parts of its format (serials.ts seriesKey). */
export interface RegistryBlocksTable {
  id: Generated<number>;
  project_id: number;
  /** serials.ts RegistryName (verra, gold_standard, acr, car, puro). */
  registry: string;
  serial_range: string;
  series: string;
  first_unit: number;
  last_unit: number;
  quantity: number;
  vintage: string;
  account: string;
  source: 'add' | 'import' | 'seed';
  demo: ColumnType<number, number | undefined, number>;
  created_at: number;
}

/** Units of a registry block one retirement took (migration 042): unit numbers first..last of the block. */
export interface RetirementUnitsTable {
  retirement_id: string;
  block_id: number;
  first_unit: number;
  last_unit: number;
}

/** A retirement's cancellation on its registry (migration 042): pending while reference is null. */
export interface RegistryCancellationsTable {
  retirement_id: string;
  project_id: number;
  created_at: number;
  /** The end of the REGISTRY_CANCEL_DAYS-th Singapore working day after the retirement. */
  due_at: number;
  /** The registry's own retirement reference, once recorded. */
  reference: string | null;
  /** YYYY-MM-DD: the day the registry cancelled the units. */
  cancelled_on: string | null;
  recorded_at: number | null;
  /** When the overdue alert was raised, once. */
  alerted_at: number | null;
}

/** A member's WebAuthn credential (docs/product.md#passkeys). */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url, as the browser gives it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The WebAuthn user handle the passkey was made for, base64url: a sign-in must carry it back. */
  user_handle: string;
  counter: number;
  /** Comma-separated transports the browser named ('' when none). */
  transports: string;
  device_name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn challenge handed out and not yet used (single use, short-lived). */
export interface PasskeyChallengesTable {
  challenge: string;
  purpose: 'register' | 'login';
  user_id: number | null;
  expires_at: number;
}

/** A monthly offset plan (migration 025, docs/product.md#monthly-offset). `day` 1-31 (29-31 fall on a short
 *  month's last day); `next_run_at` is when the next month's buy is due, null unless active. */
export interface OffsetPlansTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  tons: number;
  day: number;
  status: 'active' | 'paused' | 'cancelled';
  consent_text: string; // the consent she confirmed with her payment password, as shown to her
  consent_at: number;
  /** The person whose payment password gave the consent (the account's own login unless a member acting
   *  for an organisation did): the plan pauses when they no longer trade for the account. */
  made_by: number;
  next_run_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One month's outcome of a plan: the order placed, or the catalogue key of why none was. */
export interface OffsetRunsTable {
  plan_id: number;
  month: string; // SGT month, YYYY-MM
  outcome: 'placed' | 'refused';
  order_id: number | null;
  reason: string | null; // catalogue key of why nothing was bought
  reason_params: string | null; // its message's {n} values, JSON
  created_at: number;
}

/** An integrator's API key (migration 044): only the hash of its secret is kept. */
export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  created_by: number;
  name: string;
  mode: 'test' | 'live';
  prefix: string;
  secret_hash: string;
  /** JSON array of the scopes: read, buy, retire, webhooks. */
  scopes: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  last_used_ip: Generated<string>;
}

/** A test key's order in the sandbox (migration 045): complete at once, never a live row. */
export interface SandboxOrdersTable {
  id: Generated<number>;
  account_id: number;
  project_id: number;
  tons: number;
  unit_price: number;
  total: number;
  created_at: number;
}

/** A test key's retirement (migration 045): marked TEST, never public, never counted. */
export interface SandboxRetirementsTable {
  id: string;
  account_id: number;
  project_id: number;
  tons: number;
  beneficiary: string;
  reason: string;
  beneficiary_hidden: number;
  created_at: number;
}

export interface Database {
  api_keys: ApiKeysTable;
  sandbox_orders: SandboxOrdersTable;
  sandbox_retirements: SandboxRetirementsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  offset_plans: OffsetPlansTable;
  offset_runs: OffsetRunsTable;
  retirements: RetirementsTable;
  retirement_serials: RetirementSerialsTable;
  registry_blocks: RegistryBlocksTable;
  icc_emissions: IccEmissionsTable;
  icc_packs: IccPacksTable;
  retirement_icc: RetirementIccTable;
  retirement_units: RetirementUnitsTable;
  registry_cancellations: RegistryCancellationsTable;
  footprints: FootprintsTable;
  bank_accounts: BankAccountsTable;
  topups: TopupsTable;
  statement_lines: StatementLinesTable;
  withdrawals: WithdrawalsTable;
  orders: OrdersTable;
  order_usage: OrderUsageTable;
  credit_holdings: CreditHoldingsTable;
  idempotency_keys: IdempotencyKeysTable;
  users: UsersTable;
  sessions: SessionsTable;
  organisations: OrganisationsTable;
  organisation_members: OrganisationMembersTable;
  organisation_invitations: OrganisationInvitationsTable;
  organisation_activity: OrganisationActivityTable;
  approval_requests: ApprovalRequestsTable;
  verification_codes: VerificationCodesTable;
  outbox: OutboxTable;
  receipts: ReceiptsTable;
  receipt_counters: ReceiptCountersTable;
  rate_events: RateEventsTable;
  projects: ProjectsTable;
  project_list_counts: ProjectListCountsTable;
  news: NewsTable;
  faqs: FaqsTable;
  pages: PagesTable;
  banners: BannersTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_queue: PushQueueTable;
  notice_reminders: NoticeRemindersTable;
  live_events: LiveEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  operator_log: OperatorLogTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_entries: LedgerEntriesTable;
  fund_logs: FundLogsTable;
}
