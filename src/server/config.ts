import * as v from 'valibot';
import path from 'node:path';
import { SOCKET_PATH } from '../shared/constants';

// Configuration comes from environment variables only, validated at start-up: a bad value stops the
// server (and the operator CLI) with the key named. Names are contracts: deployments set them.

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(
    v.optional(v.string(), String(def)),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

const bool = (def: boolean) =>
  v.pipe(
    v.optional(v.string(), def ? 'true' : 'false'),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], 'must be true or false'),
    v.transform((x) => ['true', '1', 'yes', 'on'].includes(x)),
  );

const dateList = v.pipe(
  v.string(),
  v.transform((x) => x.split(',').map((d) => d.trim()).filter(Boolean)),
  v.check((xs) => xs.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)), 'must be a comma-separated list of YYYY-MM-DD dates'),
);

// Singapore public holidays (MOM gazette) used to count working days; override with PUBLIC_HOLIDAYS.
export const DEFAULT_PUBLIC_HOLIDAYS =
  '2026-01-01,2026-02-17,2026-02-18,2026-03-21,2026-04-03,2026-05-01,2026-05-27,2026-05-31,2026-06-01,2026-08-09,2026-08-10,2026-11-08,2026-11-09,2026-12-25,' +
  '2027-01-01,2027-02-06,2027-02-07,2027-02-08,2027-03-10,2027-03-26,2027-05-01,2027-05-17,2027-05-20,2027-08-09,2027-10-28,2027-12-25';

/** The default of DB_CONNECT_TIMEOUT_MS, also for the tools that open the database without a config. */
export const DEFAULT_DB_CONNECT_TIMEOUT_MS = 5000;

const envSchema = v.object({
  PORT: int(8080, 0, 65535),
  HOST: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty')), '0.0.0.0'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty')), './data'),
  // PostgreSQL instead of the embedded SQLite file: postgres://user:pass@host:5432/db (add
  // ?options=-c%20search_path%3Dname for a schema other than public).
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL'))),
  DB_POOL_SIZE: int(10, 1, 200),
  // How long a new PostgreSQL connection may take to be ready. A host that accepts the connection and never
  // answers is then a database away (503 service_unavailable, docs/operations.md#outages), not a request
  // that hangs.
  DB_CONNECT_TIMEOUT_MS: int(DEFAULT_DB_CONNECT_TIMEOUT_MS, 100, 120_000),
  SMTP_URL: v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL'))),
  SMTP_FROM: v.optional(v.string(), 'Canopy <no-reply@canopy.local>'),
  // The one legal entity (docs/product.md#legal-entity): the seller on every receipt, its PDF and mail, the
  // payee of every PayNow QR, and the company the About, terms and privacy pages name. The QR carries the
  // name and bank apps show at most 25 printable ASCII characters of it, so the name keeps to that.
  COMPANY_NAME: v.optional(
    v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(25, 'must be at most 25 characters (the PayNow QR carries it)'), v.regex(/^[\x20-\x7e]+$/, 'must be printable ASCII (the PayNow QR carries it)')),
    'Canopy Pte. Ltd.',
  ),
  COMPANY_UEN: v.optional(v.pipe(v.string(), v.regex(/^(\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])$/, 'must be a Singapore UEN, e.g. 202612345K')), '202612345K'),
  COMPANY_ADDRESS: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty')), '1 Marina Boulevard, #20-01, Singapore 018989'),
  // How often the mail job looks for receipt mail to send (docs/decisions/0036-receipts.md).
  RECEIPT_MAIL_EVERY_MS: int(2_000, 100, 3_600_000),
  APP_VERSION: v.optional(v.string(), '1.0.0'),
  SOCKET_HOST: v.optional(v.pipe(v.string(), v.regex(/^wss?:\/\/[^\s]+$/, 'must be a ws:// or wss:// URL'))),
  // The address people open the app at: the socket URL in baseconfig and the Origin a socket may come from.
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.regex(/^https?:\/\/[^\s/]+\/?$/, 'must be an http:// or https:// origin, e.g. https://canopy.sg'))),
  ALLOWED_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((x) => x.split(',').map((o) => o.trim()).filter(Boolean)),
      v.check((xs) => xs.every((o) => /^https?:\/\/[^\s/]+$/.test(o)), 'must be a comma-separated list of http(s) origins'),
    ),
    '',
  ),
  SOCKETS_PER_TOKEN: int(5, 1, 1000),
  SOCKETS_PER_IP: int(100, 1, 100_000),
  SOCKET_MAX_FRAME_BYTES: int(4096, 64, 1_048_576),
  // Per-message deflate on the live socket: off by default (its zlib contexts cost tens of KiB per socket,
  // and the messages are a few dozen bytes).
  SOCKET_PERMESSAGE_DEFLATE: bool(false),
  // The server pings every open socket this often and ends one that did not answer the previous ping: a
  // connection that died without a close (a phone out of coverage) frees its place under the caps.
  SOCKET_PING_MS: int(30_000, 50, 600_000),
  // The fallback read of live_events; events normally arrive by push (src/server/live/wake-ups.ts).
  LIVE_POLL_MS: int(500, 50, 600_000),
  SEED_DEMO: bool(true),
  // Reverse proxies in front of the server: off (0) or the number of trusted hops; "true" means 1.
  TRUST_PROXY: v.pipe(
    v.optional(v.string(), 'off'),
    v.transform((x) => (['false', 'off', 'no', '0'].includes(x) ? 0 : ['true', 'on', 'yes'].includes(x) ? 1 : /^\d+$/.test(x) ? Number(x) : NaN)),
    v.check((n) => Number.isInteger(n) && n >= 0 && n <= 10, 'must be off, true, or the number of trusted proxy hops (0-10)'),
  ),
  REGISTRATION_OPEN: bool(true),
  // Where members write for what only an operator can do, e.g. removing a forgotten payment password
  // (docs/product.md#accounts): baseconfig serves it and the app links it as mailto:.
  SUPPORT_EMAIL: v.optional(v.pipe(v.string(), v.maxLength(140, 'must be at most 140 characters'), v.email('must be an e-mail address')), 'support@canopy.sg'),
  REGISTRATIONS_PER_IP_PER_HOUR: int(10, 1),
  CODES_PER_IP_PER_HOUR: int(20, 1),
  CODES_PER_ACCOUNT_PER_HOUR: int(5, 1),
  LOGINS_PER_IP_PER_HOUR: int(20, 1),
  LOGINS_PER_ACCOUNT_PER_HOUR: int(10, 1),
  RESETS_PER_IP_PER_HOUR: int(10, 1),
  RESETS_PER_ACCOUNT_PER_HOUR: int(5, 1),
  // Login- and withdrawal-password changes per account: each compares a candidate with the other password.
  PASSWORD_CHANGES_PER_ACCOUNT_PER_HOUR: int(5, 1),
  // Avatar uploads (modules/avatar): per account and hour, the body's size cap (5 MiB) and the decoded
  // picture's size cap in megapixels (sharp's limitInputPixels, against decompression bombs).
  AVATAR_UPLOADS_PER_ACCOUNT_PER_HOUR: int(30, 1),
  // Invitations an organisation sends an hour: each is a mail to an address its admins choose.
  ORG_INVITES_PER_ACCOUNT_PER_HOUR: int(50, 1),
  // Webhook pings and resends an account asks for an hour: each is a request Canopy makes to an address the
  // account chooses, so they are not a way to aim Canopy's traffic at someone else's server.
  WEBHOOK_MANUAL_SENDS_PER_HOUR: int(60, 1),
  // Requests to the public API (/api/public: certificates, transparency) per address and minute: a page
  // polling every 15 s costs 4; this stops a flood (a certificate lookup by a random id reads the database).
  PUBLIC_REQUESTS_PER_IP_PER_MINUTE: int(120, 1),
  AVATAR_MAX_BYTES: int(5 * 1024 * 1024, 1024, 64 * 1024 * 1024),
  AVATAR_MAX_MEGAPIXELS: int(40, 1, 268),
  SESSION_TTL_DAYS: int(30, 1, 365),
  // How long an organisation's invitation link can be used (docs/product.md#organisations).
  ORG_INVITE_TTL_HOURS: int(72, 1, 720),
  // How long a retirement or withdrawal waits for an approver before it expires (docs/product.md#approvals).
  APPROVAL_TTL_DAYS: int(7, 1, 90),
  // Singapore working days the operator has to cancel a retirement's units on the registry and record it
  // (docs/product.md#registry-cancellation); past it the cancellation is overdue and raises an alert.
  REGISTRY_CANCEL_DAYS: int(3, 1, 30),
  // argon2id (OWASP: m=19 MiB, t=2, p=1). Tests lower the memory for speed.
  ARGON2_MEMORY_KIB: int(19_456, 256, 4_194_304),
  ARGON2_TIME_COST: int(2, 1, 20),
  ARGON2_PARALLELISM: int(1, 1, 16),
  // Password hashing runs in bounded lanes: anonymous work (login, register, reset) never starves the
  // payment-password checks of signed-in users. A job that cannot start within HASH_MAX_WAIT_MS is refused.
  HASH_CONCURRENCY_ANON: int(1, 1, 64),
  HASH_CONCURRENCY_USER: int(2, 1, 64),
  HASH_MAX_WAIT_MS: int(3000, 10, 60_000),
  HASH_JOBS_PER_CLIENT: int(4, 1, 1000),
  // A throttle's 429 is answered after this delay (0: at once), so refused clients cannot loop fast.
  THROTTLE_DELAY_MS: int(500, 0, 10_000),
  // On SIGTERM /readyz answers 503 at once and the server keeps serving for this long before it closes,
  // so a proxy or orchestrator stops sending work first (SIGINT, Ctrl-C, closes at once).
  SHUTDOWN_DRAIN_MS: int(5000, 0, 120_000),
  // GET /metrics (Prometheus text) answers only `Authorization: Bearer <METRICS_TOKEN>`; unset: no endpoint.
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  // The scheduler recomputes every balance from its fund logs this often (checkLedger; the result is logged
  // and exposed as canopy_ledger_check_ok). 0: never. Default 10 minutes.
  LEDGER_CHECK_INTERVAL_MS: int(600_000, 0, 86_400_000),
  // Keys the fingerprints of idempotent requests (secrets in them are never stored in clear). Unset: a
  // random key kept in DATA_DIR/secret.key. Several instances must share one.
  SECRET_KEY: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  // Web Push (docs/decisions/0033-web-push.md): the VAPID key pair that signs every push (base64url, as
  // `web-push generate-vapid-keys` prints it; both or neither: unset, the first instance makes a pair and the
  // database keeps it for every instance), the contact push services may write to, the push services a
  // device's subscription may point at (host names, each with its subdomains; only these are ever sent to),
  // and the first wait before a push refused with a 5xx is tried again (doubling each time).
  VAPID_PUBLIC_KEY: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{87}$/, 'must be a P-256 public key, base64url (87 characters)'))),
  VAPID_PRIVATE_KEY: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key, base64url (43 characters)'))),
  VAPID_SUBJECT: v.optional(v.pipe(v.string(), v.regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/, 'must be a mailto: address or an https:// URL')), 'mailto:ops@canopy.sg'),
  PUSH_HOSTS: v.optional(
    v.pipe(
      v.string(),
      v.transform((x) => x.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)),
      v.check((xs) => xs.length > 0 && xs.every((h) => /^[a-z0-9.-]+$/.test(h)), 'must be a comma-separated list of host names'),
    ),
    'fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com',
  ),
  PUSH_RETRY_MS: int(60_000, 10, 86_400_000),
  // Webhooks (docs/decisions/0044-webhooks.md): receivers on loopback and over plain http (local development
  // and tests only; production receivers are https on public addresses), the waits between a delivery's
  // tries (Standard Webhooks' schedule: about three days, then the endpoint is disabled), one try's time
  // limit, and how often each instance looks for due deliveries.
  WEBHOOK_ALLOW_PRIVATE: bool(false),
  WEBHOOK_RETRY_SCHEDULE_MS: v.pipe(
    v.optional(v.string(), '5000,300000,1800000,7200000,18000000,36000000,50400000,72000000,86400000'),
    v.transform((x) => x.split(',').map((s) => Number(s.trim()))),
    v.check((xs) => xs.length >= 1 && xs.length <= 20 && xs.every((n) => Number.isSafeInteger(n) && n >= 10), 'must be 1 to 20 comma-separated waits in milliseconds (10 or more each)'),
  ),
  WEBHOOK_TIMEOUT_MS: int(15_000, 100, 60_000),
  WEBHOOK_POLL_MS: int(1000, 20, 60_000),
  WITHDRAW_MIN_CENTS: int(5000, 1),
  WITHDRAW_MAX_CENTS: int(5_000_000, 1),
  WITHDRAW_FEE_CENTS: int(200, 0),
  WITHDRAW_FEE_BP: int(0, 0, 10_000),
  TOPUP_MIN_CENTS: int(1000, 1),
  TOPUP_AUTO_CONFIRM: bool(false),
  // How long a PayNow top-up request stays payable (its QR pays COMPANY_UEN, docs/decisions/0014-paynow.md).
  TOPUP_EXPIRY_MINUTES: int(30, 1, 7 * 24 * 60),
  PRESALE_FEE_BP: int(1000, 0, 10_000),
  PRESALE_PAY_HOURS: int(72, 1),
  SETTLEMENT_WORKING_DAYS: int(2, 1, 3),
  SELL_MIN_GRADE: int(1, 0, 5),
  PRESALE_SELL_MIN_GRADE: int(3, 0, 5),
  GRADE_THRESHOLDS_CENTS: v.pipe(
    v.optional(v.string(), '100000,500000,2000000,5000000,10000000'),
    v.transform((x) => x.split(',').map((s) => Number(s.trim()))),
    v.check((xs) => xs.length === 5 && xs.every((n, i) => Number.isSafeInteger(n) && n > 0 && (i === 0 || n > xs[i - 1]!)), 'must be 5 increasing whole numbers (cents)'),
  ),
  PUBLIC_HOLIDAYS: v.optional(dateList, DEFAULT_PUBLIC_HOLIDAYS),
  // Retention of short-lived rows (scheduler/retention.ts); money tables are never pruned.
  RETENTION_EVENTS_HOURS: int(24, 1, 24 * 365),
  RETENTION_IDEMPOTENCY_HOURS: int(24, 1, 24 * 365),
  RETENTION_OUTBOX_DAYS: int(30, 1, 3650),
  RETENTION_WEBHOOK_DAYS: int(30, 1, 3650),
  // Benchmarks only (refused unless NODE_ENV=benchmark): orders skip the payment-password check, so
  // bench/orders.ts measures the order engine without the hash (its orders/s row in bench/README.md).
  BENCH_SKIP_PAYMENT_PASSWORD: bool(false),
  LOG_LEVEL: v.optional(v.picklist(['silent', 'error', 'info', 'debug'], 'must be silent, error, info or debug'), 'info'),
});

export type Config = v.InferOutput<typeof envSchema> & {
  /** Set by server.ts when PUBLIC_URL was not configured and it filled it in from the listening address:
   *  the passkeys' relying party then follows the page's own host name (passkey/relying-party.ts). */
  PUBLIC_URL_DERIVED?: boolean;
  DB_FILE: string;
  /** What openDatabase opens: DATABASE_URL, or the SQLite file. */
  DB_TARGET: string;
};

/** The live socket's URL the app is told to open (baseconfig's socket_host): SOCKET_HOST, else PUBLIC_URL
 *  as ws(s) + /h5/ws. From the configuration only, never from a request (server.ts fills PUBLIC_URL in at
 *  start when unset, so call it per answer). */
export function socketUrl(config: Pick<Config, 'SOCKET_HOST' | 'PUBLIC_URL' | 'PORT'>): string {
  return config.SOCKET_HOST ?? `${(config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/^http/, 'ws')}${SOCKET_PATH}`;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Keys that were replaced: a deployment still setting one is told which key holds the value now. */
const REPLACED_KEYS: Record<string, string> = {
  PAYNOW_NAME: 'COMPANY_NAME (one legal entity names the PayNow payee and the receipts alike)',
  PAYNOW_UEN: 'COMPANY_UEN (one legal entity names the PayNow payee and the receipts alike)',
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const replaced = Object.keys(REPLACED_KEYS).filter((key) => env[key] !== undefined && env[key] !== '');
  if (replaced.length) throw new ConfigError(replaced.map((key) => `${key}: no longer read; set ${REPLACED_KEYS[key]}`));
  const picked: Record<string, string> = {};
  for (const key of Object.keys(envSchema.entries)) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const result = v.safeParse(envSchema, picked);
  if (!result.success) {
    const problems = result.issues.map((issue) => {
      const key = issue.path?.map((p) => String(p.key)).join('.') ?? '?';
      return `${key}=${JSON.stringify(picked[key] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const out = result.output;
  if (out.WITHDRAW_MIN_CENTS > out.WITHDRAW_MAX_CENTS) {
    throw new ConfigError([`WITHDRAW_MIN_CENTS=${out.WITHDRAW_MIN_CENTS}: must not exceed WITHDRAW_MAX_CENTS (${out.WITHDRAW_MAX_CENTS})`]);
  }
  if (out.BENCH_SKIP_PAYMENT_PASSWORD && env.NODE_ENV !== 'benchmark') {
    throw new ConfigError(['BENCH_SKIP_PAYMENT_PASSWORD=true: only for benchmarks, and refused unless NODE_ENV=benchmark']);
  }
  if ((out.VAPID_PUBLIC_KEY === undefined) !== (out.VAPID_PRIVATE_KEY === undefined)) {
    throw new ConfigError(['VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both (a key pair) or neither']);
  }
  // PUBLIC_URL unset: the server fills in the address it listens on once it knows its port.
  const DB_FILE = path.resolve(out.DATA_DIR, 'canopy.db');
  return { ...out, PUBLIC_URL: out.PUBLIC_URL?.replace(/\/$/, ''), DB_FILE, DB_TARGET: out.DATABASE_URL ?? DB_FILE };
}
