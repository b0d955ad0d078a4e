import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';

// Writes docs/configuration.md from src/server/config.ts, so the table and the code cannot drift:
// `npm run docs:config`. The keys, their defaults (as loadConfig computes them) and the ranges of whole-number
// keys come from config.ts; what each key does, and the allowed values the source cannot state in a word, come
// from DESCRIBE below. tests/server/config-doc.test.ts fails when the file is not what this writes, or when a
// key has no description.

interface KeyDoc {
  /** What the key does, for an operator. */
  what: string;
  /** Allowed values, where config.ts's schema is not a whole number or a switch. */
  allowed?: string;
  /** The default as an operator reads it, where the computed value would mislead. */
  shown?: string;
}

const DESCRIBE: Record<string, KeyDoc> = {
  PORT: { what: 'HTTP port of the app, the API and the live socket (0: any free port)' },
  HOST: { what: 'Interface to listen on', allowed: 'an address or host name' },
  DATA_DIR: { what: 'Where the SQLite file `canopy.db` lives, with `limits.db` and `avatars/` (a `secret.key` of an older version is offered to the database once)', allowed: 'a directory path' },
  DATABASE_URL: {
    what: 'PostgreSQL instead of the SQLite file; add `?options=-c%20search_path%3Dname` for a schema other than public',
    allowed: '`postgres://user:pass@host:5432/db`',
  },
  DB_POOL_SIZE: { what: 'PostgreSQL connections per instance' },
  DB_CONNECT_TIMEOUT_MS: { what: 'How long a new PostgreSQL connection may take to be ready; past it the request is answered 503 like any outage (docs/operations.md, Outages)' },
  SMTP_URL: { what: 'Mail server; without it mail stays in the outbox table and verification codes go to the log', allowed: '`smtp://` or `smtps://` URL' },
  SMTP_FROM: { what: 'Sender of mail', allowed: 'text' },
  COMPANY_NAME: {
    what: 'The one legal entity: the seller on every receipt (data, PDF, mail), the payee of every PayNow QR, the company the About, terms and privacy pages name',
    allowed: '1-25 printable ASCII characters',
  },
  COMPANY_UEN: { what: "The legal entity's UEN: on every receipt, the PayNow QR pays it, the About page shows it", allowed: 'Singapore UEN' },
  COMPANY_ADDRESS: { what: "The legal entity's address: on every receipt and the About page", allowed: 'text' },
  RECEIPT_MAIL_EVERY_MS: { what: 'How often each instance looks for queued mail (receipts, invitations) to send (one instance claims each mail)' },
  APP_VERSION: { what: 'Version served in baseconfig (the app sends it back as `v`)', allowed: 'text' },
  SOCKET_HOST: {
    what: 'Live socket URL served in baseconfig; never taken from the request',
    allowed: '`ws://` or `wss://` URL',
    shown: '`PUBLIC_URL` as ws(s) + `/h5/ws`',
  },
  PUBLIC_URL: {
    what: 'The origin people open the app at: gives baseconfig its socket URL, certificates their address, the Origin sockets may come from, and passkeys their RP ID (its host name) and origin. Set it behind a proxy; every instance behind one address sets the same',
    allowed: '`http(s)://host[:port]`',
    shown: 'the address the server listens on',
  },
  ALLOWED_ORIGINS: { what: 'Extra page origins that may open the socket; any other browser Origin is refused (403)', allowed: 'comma-separated `http(s)://` origins', shown: '(none)' },
  SOCKETS_PER_TOKEN: { what: 'Open sockets per session; above it the handshake answers 429' },
  SOCKETS_PER_IP: { what: 'Open sockets per client address (see `TRUST_PROXY`); above it 429' },
  SOCKET_MAX_FRAME_BYTES: { what: 'A larger frame from a client closes its socket (1009)' },
  SOCKET_PERMESSAGE_DEFLATE: { what: 'Offer per-message deflate on the live socket (costs memory per socket; messages are small)' },
  SOCKET_PING_MS: { what: 'How often the server pings each live socket; one that did not answer the previous ping is ended and frees its place under the caps' },
  LIVE_POLL_MS: { what: "The live hub's fallback read of new events; events normally arrive by push" },
  SEED_DEMO: { what: 'Seed demo content and the demo account into an empty database' },
  TRUST_PROXY: {
    what: 'Reverse proxies in front: the client address is the Nth `X-Forwarded-For` entry from the right',
    allowed: '`off`, `true` (= 1) or hops 0 to 10',
    shown: 'off',
  },
  REGISTRATION_OPEN: { what: '`false` answers "Registration restricted"' },
  SUPPORT_EMAIL: { what: 'Support address the app links (mailto:) where only an operator can help, e.g. a forgotten payment password, and the About page names (`{support_email}` in a page text)', allowed: 'an e-mail address' },
  REGISTRATIONS_PER_IP_PER_HOUR: { what: 'Registration attempts per address; above it "Bulk registration prohibited" (429)' },
  CODES_PER_IP_PER_HOUR: { what: 'Verification codes sent per address; above it "Bulk registration prohibited" (429)' },
  CODES_PER_ACCOUNT_PER_HOUR: { what: 'Verification codes sent per email address (429)' },
  LOGINS_PER_IP_PER_HOUR: { what: 'Wrong logins per address (429)' },
  LOGINS_PER_ACCOUNT_PER_HOUR: { what: 'Wrong logins per email address (429)' },
  RESETS_PER_IP_PER_HOUR: { what: 'Password-reset attempts per address (429)' },
  RESETS_PER_ACCOUNT_PER_HOUR: { what: 'Password-reset attempts per email address (429)' },
  PASSWORD_CHANGES_PER_ACCOUNT_PER_HOUR: { what: 'Login- and withdrawal-password changes per account (429)' },
  AVATAR_UPLOADS_PER_ACCOUNT_PER_HOUR: { what: 'Avatar uploads per account (429)' },
  ORG_INVITES_PER_ACCOUNT_PER_HOUR: { what: 'Invitation mails an organisation sends (429)' },
  WEBHOOK_MANUAL_SENDS_PER_HOUR: { what: 'Webhook pings and resends per account (429)' },
  PUBLIC_REQUESTS_PER_IP_PER_MINUTE: { what: 'Requests to the public API (certificates, transparency) per address and minute (429)' },
  AVATAR_MAX_BYTES: { what: 'Largest avatar upload in bytes (413)' },
  AVATAR_MAX_MEGAPIXELS: { what: "Largest avatar picture in megapixels, checked before decoding" },
  SESSION_TTL_DAYS: { what: 'Sliding session lifetime in days' },
  ORG_INVITE_TTL_HOURS: { what: "Hours an organisation's invitation link can be used (once)" },
  REGISTRY_CANCEL_DAYS: { what: "Singapore working days to cancel a retirement's units on its registry and record the reference; later, the cancellation is overdue (metric canopy_registry_cancellations_overdue and an error log line) and the member sees the date it was due" },
  APPROVAL_TTL_DAYS: { what: 'Days a retirement or withdrawal waits for an approver before it expires and what it held is released' },
  ARGON2_MEMORY_KIB: { what: 'argon2id memory cost of password hashes (KiB); hashes of other parameters are replaced at the next right password' },
  ARGON2_TIME_COST: { what: 'argon2id iterations' },
  ARGON2_PARALLELISM: { what: 'argon2id lanes' },
  HASH_CONCURRENCY_ANON: { what: 'Password hashes running at once for anonymous requests (login, register, reset)' },
  HASH_CONCURRENCY_USER: { what: "Password hashes running at once for signed-in users' payment and password checks" },
  HASH_MAX_WAIT_MS: { what: 'A hash that cannot start within this is refused with "Too many requests" (429)' },
  HASH_JOBS_PER_CLIENT: { what: 'Password hashes one user (or, for anonymous requests, one address) may have running or queued' },
  THROTTLE_DELAY_MS: { what: "A throttle's 429 is answered after this delay, so refused clients cannot loop fast" },
  SHUTDOWN_DRAIN_MS: { what: 'On SIGTERM `/readyz` answers 503 at once and the server keeps serving this long before it closes' },
  METRICS_TOKEN: { what: '`GET /metrics` answers `Authorization: Bearer <token>`; unset: no endpoint', allowed: 'at least 16 characters' },
  LEDGER_CHECK_INTERVAL_MS: { what: 'How often each instance recomputes every balance from its fund logs; 0 turns it off' },
  SECRET_KEY: {
    what: 'Keys the fingerprints of idempotent requests; checked at start against the key the database recorded (an instance with another key refuses to start)',
    allowed: 'at least 32 characters',
    shown: 'random, made by the first instance and kept in the database (`server_secret`), shared by every instance of it',
  },
  VAPID_PUBLIC_KEY: {
    what: 'Public half of the VAPID key pair that signs Web Push messages; set with `VAPID_PRIVATE_KEY` or not at all',
    allowed: 'base64url P-256 public key (87 characters, `npx web-push generate-vapid-keys`)',
    shown: 'made by the first instance and kept in the database (`server_secret`), shared by every instance of it',
  },
  VAPID_PRIVATE_KEY: { what: 'Private half of the VAPID key pair', allowed: 'base64url P-256 private key (43 characters)', shown: 'with `VAPID_PUBLIC_KEY`' },
  VAPID_SUBJECT: { what: 'The contact push services are given with every push', allowed: '`mailto:` address or `https://` URL' },
  PUSH_HOSTS: {
    what: "Push services a device's subscription may point at (each host with its subdomains); the server sends to no other address",
    allowed: 'comma-separated host names',
  },
  PUSH_RETRY_MS: { what: 'First wait before a push the push service refused with a 5xx (or could not be reached for) is tried again; doubles each time, at most 8 tries (at 60000 the last about two hours after the first)' },
  WEBHOOK_ALLOW_PRIVATE: { what: 'Development and tests only: webhook receivers may be plain `http://` and on loopback (127.0.0.0/8, ::1); never private, link-local or other addresses' },
  WEBHOOK_RETRY_SCHEDULE_MS: {
    what: "Waits between a webhook delivery's tries after the first (Standard Webhooks' schedule, about three days); after the last one fails the endpoint is disabled and its owner told",
    allowed: '1-20 comma-separated milliseconds, 10 or more each',
  },
  WEBHOOK_TIMEOUT_MS: { what: "How long one webhook try waits for the receiver's name to resolve and its answer; slower counts as failed and is retried" },
  WEBHOOK_POLL_MS: { what: 'How often each instance looks for due webhook deliveries' },
  WITHDRAW_MIN_CENTS: { what: 'Smallest withdrawal (cents received); not above `WITHDRAW_MAX_CENTS`' },
  WITHDRAW_MAX_CENTS: { what: 'Largest withdrawal (cents received)' },
  WITHDRAW_FEE_CENTS: { what: 'Fixed part of the withdrawal handling fee (cents)' },
  WITHDRAW_FEE_BP: { what: 'Proportional part of the withdrawal handling fee (basis points of the amount, rounded down)' },
  TOPUP_MIN_CENTS: { what: 'Smallest top-up (cents)' },
  TOPUP_AUTO_CONFIRM: { what: 'Demo: credit top-ups at once, without a bank statement or an operator' },
  TOPUP_EXPIRY_MINUTES: { what: 'How long a top-up request (its QR and reference) stays payable' },
  PRESALE_FEE_BP: { what: 'Pre-sale booking fee (basis points of tons x pre-sale price)' },
  PRESALE_PAY_HOURS: { what: 'Final-payment deadline after a pre-sale is allocated (hours)' },
  SETTLEMENT_WORKING_DAYS: { what: 'Sale proceeds become available after these working days' },
  SELL_MIN_GRADE: { what: 'Lowest grade that may sell credits back' },
  PRESALE_SELL_MIN_GRADE: { what: 'Lowest grade that may sell credits of pre-sale origin (3 = ambassador)' },
  GRADE_THRESHOLDS_CENTS: { what: 'Completed purchases (cents) that reach grades P1 to P5', allowed: '5 increasing whole numbers, comma-separated' },
  PUBLIC_HOLIDAYS: { what: 'Singapore public holidays, for working days', allowed: 'comma-separated `YYYY-MM-DD`', shown: 'Singapore 2026-2027' },
  RETENTION_EVENTS_HOURS: { what: 'Socket events older than this are pruned' },
  RETENTION_IDEMPOTENCY_HOURS: { what: 'Idempotency keys older than this are pruned (their effects stay)' },
  RETENTION_OUTBOX_DAYS: { what: 'Sent mail older than this is pruned (unsent mail stays)' },
  RETENTION_WEBHOOK_DAYS: { what: 'Webhook deliveries settled longer ago than this are pruned with their tries, and events none of them carries (pending deliveries stay)' },
  BENCH_SKIP_PAYMENT_PASSWORD: { what: 'Benchmarks only: orders skip the payment-password check; refused unless `NODE_ENV=benchmark`' },
  LOG_LEVEL: { what: 'Log verbosity', allowed: '`silent`, `error`, `info`, `debug`' },
};

/** The schema's entries as written in config.ts: each key with the source text of its schema. */
export function schemaEntries(source: string): { key: string; expr: string }[] {
  const start = source.indexOf('const envSchema = v.object({');
  const end = source.indexOf('\n});', start);
  if (start < 0 || end < 0) throw new Error('config.ts: envSchema not found');
  const entries: { key: string; expr: string }[] = [];
  for (const line of source.slice(start, end).split('\n').slice(1)) {
    const m = /^ {2}([A-Z][A-Z0-9_]*): (.*)$/.exec(line);
    if (m) entries.push({ key: m[1]!, expr: m[2]! });
    else if (entries.length && !/^ {2}\/\//.test(line)) entries[entries.length - 1]!.expr += ` ${line.trim()}`;
  }
  return entries;
}

/** A number as written in config.ts: digits with `_`, or a product of them (`5 * 1024 * 1024`). */
function evalNumber(text: string): number {
  const factors = text.split('*').map((f) => f.trim().replace(/_/g, ''));
  if (factors.some((f) => !/^\d+$/.test(f))) throw new Error(`config.ts: cannot read the number ${text}`);
  return factors.reduce((a, f) => a * Number(f), 1);
}

const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function allowedOf(key: string, expr: string, doc: KeyDoc): string {
  const int = /^int\(([^,)]+)(?:,\s*([^,)]+))?(?:,\s*([^,)]+))?\)/.exec(expr);
  if (int) {
    const min = int[2] ? evalNumber(int[2]) : 0;
    return int[3] ? `${grouped(min)} to ${grouped(evalNumber(int[3]))}` : `${grouped(min)} or more`;
  }
  if (/^bool\(/.test(expr)) return '`true` or `false` (also 1/0, yes/no, on/off)';
  if (!doc.allowed) throw new Error(`config-doc: ${key} needs an "allowed" text in DESCRIBE`);
  return doc.allowed;
}

function shownDefault(value: unknown): string {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '(none)';
  if (Array.isArray(value)) return `\`${value.join(',')}\``;
  return `\`${String(value)}\``;
}

/** The Markdown of docs/configuration.md for the given config.ts source. */
export function configDoc(source: string): string {
  const entries = schemaEntries(source);
  const keys = new Set(entries.map((e) => e.key));
  const stale = Object.keys(DESCRIBE).filter((k) => !keys.has(k));
  if (stale.length) throw new Error(`config-doc: DESCRIBE names keys config.ts no longer has: ${stale.join(', ')}`);
  const defaults = loadConfig({}) as unknown as Record<string, unknown>;
  const rows = entries.map(({ key, expr }) => {
    const doc = DESCRIBE[key];
    if (!doc) throw new Error(`config-doc: ${key} has no description in DESCRIBE (src/server/config-doc.ts)`);
    const cells = [`\`${key}\``, doc.shown ?? shownDefault(defaults[key]), allowedOf(key, expr, doc), doc.what];
    return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  });
  return [
    '# Configuration',
    '',
    '<!-- Generated from src/server/config.ts by `npm run docs:config`; edit src/server/config-doc.ts, not this file. -->',
    '',
    'Environment variables only, validated at start-up: a bad value stops the server (and the operator CLI) with',
    'the key named. Write whole numbers without separators (`5000`, not `5,000`). `npm run start:cluster` also reads',
    '`CLUSTER_WORKERS` (default: one instance per CPU).',
    '',
    '| Name | Default | Allowed | What it does |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

export const CONFIG_SOURCE = fileURLToPath(new URL('./config.ts', import.meta.url));
export const CONFIG_DOC = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(CONFIG_DOC, configDoc(fs.readFileSync(CONFIG_SOURCE, 'utf8')));
  console.log(`wrote ${path.relative(process.cwd(), CONFIG_DOC)}`);
}
