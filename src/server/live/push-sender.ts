import type webpush from 'web-push';
import { dialectOf, type DB } from '../db/connection';
import { writeTx } from '../db/tx';
import { vapidKeys, type VapidKeys } from '../lib/vapid';
import type { Config } from '../config';
import type { Logger } from '../lib/log';
import type { Clock } from '../lib/clock';

// The sender of Web Push (docs/decisions/0033-web-push.md). Every instance's scheduler runs it (its own
// timer, scheduler/scheduler.ts pushLoop); a queue
// row (live/notices.ts) is sent by the instance that claims it: the claim commits `claimed_until` (a
// lease) before the send, so two instances never send the same row at once, and a row whose instance
// died (kill -9) after its claim is sent again once the lease ends: none is lost. The push goes with the
// notice's id as its Topic and the notification's tag, so the rare second delivery of a row whose answer
// was lost replaces the first on the push service and on the device instead of showing twice.
// Answers: 2xx sent (row gone); 404/410 the device unsubscribed (its subscription and rows gone); 5xx,
// 429 or no answer: tried again after PUSH_RETRY_MS, doubling, at most MAX_ATTEMPTS times (at the default
// 60 s the waits are 1, 2, 4 ... 64 minutes: the last try about two hours after the first); another 4xx
// is a push the service will never take (row gone, logged). Every failed send logs its cause.

const LEASE_MS = 60_000;
const SEND_TIMEOUT_MS = 10_000;
const MAX_ATTEMPTS = 8;
/** Rows one claim takes (sent at once, in parallel). */
export const PUSH_BATCH = 100;
/** How long a push service keeps a push for a device that is offline. */
const TTL_SECONDS = 24 * 3600;

interface SenderDeps {
  db: DB;
  config: Config;
  clock: Clock;
  log: Logger;
}

export interface PushReport {
  sent: number;
  retried: number;
  removed: number;
  dropped: number;
}

/** What a device is sent: the notice in the device's language, the screen to open, the unread count. */
export interface PushPayload {
  id: number;
  title: string;
  body: string;
  url: string;
  unread: number;
}

interface Claimed {
  id: number;
  attempts: number;
  subscription_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: string;
  notification_id: number;
  user_id: number;
  title: string;
  title_cn: string;
  body: string;
  body_cn: string;
  url: string | null;
}

/** Whether the server may send to this endpoint: https to a listed push service (a listed host or its
 *  subdomain); plain http only to a listed loopback host (a push service on the same machine). */
export function pushEndpointAllowed(endpoint: string, hosts: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  const host = u.hostname.toLowerCase();
  const listed = hosts.some((h) => host === h || host.endsWith(`.${h}`));
  if (!listed) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && (host === '127.0.0.1' || host === 'localhost');
}

/** Claims up to `limit` due rows for this instance (the lease commits before anything is sent). */
async function claim(db: DB, now: number, limit: number): Promise<number[]> {
  return writeTx(db, async (tx) => {
    const due = tx.selectFrom('push_queue').select('id').where('next_at', '<=', now).where('claimed_until', '<=', now).orderBy('next_at').orderBy('id').limit(limit);
    const rows = await tx
      .updateTable('push_queue')
      .set((eb) => ({ claimed_until: now + LEASE_MS, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', dialectOf(tx) === 'postgres' ? due.forUpdate().skipLocked() : due)
      // Checked again on the row as it stands (PostgreSQL re-reads a row another claim changed).
      .where('claimed_until', '<=', now)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  });
}

async function claimedRows(db: DB, ids: number[]): Promise<Claimed[]> {
  return db
    .selectFrom('push_queue as q')
    .innerJoin('push_subscriptions as s', 's.id', 'q.subscription_id')
    .innerJoin('notifications as n', 'n.id', 'q.notification_id')
    .select(['q.id', 'q.attempts', 'q.subscription_id', 's.endpoint', 's.p256dh', 's.auth', 's.lang', 'q.notification_id', 'n.user_id', 'n.title', 'n.title_cn', 'n.body', 'n.body_cn', 'n.url'])
    .where('q.id', 'in', ids)
    .execute();
}

async function unreadCounts(db: DB, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('notifications')
    .select((eb) => ['user_id', eb.fn.countAll<number | string>().as('n')])
    .where('user_id', 'in', userIds)
    .where('read_at', 'is', null)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
}

/** The most a push's JSON may take: one aes128gcm record of 4096 bytes (RFC 8291 section 4, what push
 *  services accept; FCM answers 413 beyond) less its header (86 bytes), tag (16) and delimiter (1). */
const PUSH_PAYLOAD_MAX_BYTES = 4096 - 86 - 16 - 1;

const bytesOf = (p: PushPayload) => Buffer.byteLength(JSON.stringify(p));

/** The payload with its body cut to fit PUSH_PAYLOAD_MAX_BYTES, on a whole character, ending in an
 *  ellipsis: an operator notice may be 2000 Chinese characters, three bytes each; the inbox shows it whole. */
function fitted(p: PushPayload): PushPayload {
  if (bytesOf(p) <= PUSH_PAYLOAD_MAX_BYTES) return p;
  const chars = Array.from(p.body);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytesOf({ ...p, body: `${chars.slice(0, mid).join('')}…` }) <= PUSH_PAYLOAD_MAX_BYTES) lo = mid;
    else hi = mid - 1;
  }
  return { ...p, body: `${chars.slice(0, lo).join('')}…` };
}

export function pushPayload(row: Pick<Claimed, 'notification_id' | 'lang' | 'title' | 'title_cn' | 'body' | 'body_cn' | 'url'>, unread: number): PushPayload {
  const zh = row.lang === 'cn';
  return fitted({
    id: row.notification_id,
    title: (zh && row.title_cn) || row.title,
    body: (zh && row.body_cn) || row.body,
    url: row.url ?? '/pages/profile/notifications',
    unread,
  });
}

type Outcome = 'sent' | 'gone' | 'retry' | 'drop';

/** Why a send failed, for the log: the push service's answer, or where the connection broke. */
type Cause = 'status' | 'dns' | 'connect' | 'tls' | 'timeout' | 'network' | 'not_allowed' | 'keys';

interface Sent {
  outcome: Outcome;
  status: number;
  cause?: Cause;
  /** The system's error code (ENOTFOUND, ECONNREFUSED, ERR_SSL_...), when there is one. */
  code?: string;
}

/** The cause of a fetch that threw: a timeout, a DNS lookup, a refused or reset connection, TLS. undici
 *  wraps the socket's error as `cause` ("fetch failed"). */
function causeOf(err: unknown): { cause: Cause; code?: string } {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return { cause: 'timeout', code: err.name };
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR_SOCKET')) {
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NONAME') return { cause: 'dns', code };
      if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') return { cause: 'timeout', code };
      if (code === 'EPROTO' || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('CERT') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE') return { cause: 'tls', code };
      if (code.startsWith('ECONN') || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EPIPE') return { cause: 'connect', code };
    }
    e = e.cause;
  }
  const code = err instanceof Error ? ((err.cause as NodeJS.ErrnoException | undefined)?.code ?? err.name) : undefined;
  return { cause: 'network', ...(code ? { code } : {}) };
}

/** One push over HTTP: the body encrypted for the device (RFC 8291, aes128gcm) and signed with VAPID. */
async function sendOne(row: Claimed, payload: PushPayload, keys: VapidKeys, hosts: readonly string[]): Promise<Sent> {
  if (!pushEndpointAllowed(row.endpoint, hosts)) return { outcome: 'gone', status: 0, cause: 'not_allowed' };
  // web-push is loaded by the first push, not at start (docs/operations.md#restarts).
  const { default: lib } = await import('web-push');
  let req: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    req = encrypted(lib, row, payload, keys);
  } catch {
    // The device's keys cannot be encrypted for (not a P-256 point): no push to it ever can.
    return { outcome: 'gone', status: 0, cause: 'keys' };
  }
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
  try {
    const res = await fetch(req.endpoint, { method: 'POST', headers, body: new Uint8Array(req.body as Buffer), redirect: 'manual', signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return { outcome: 'sent', status: res.status };
    if (res.status === 404 || res.status === 410) return { outcome: 'gone', status: res.status, cause: 'status' };
    if (res.status >= 500 || res.status === 429) return { outcome: 'retry', status: res.status, cause: 'status' };
    return { outcome: 'drop', status: res.status, cause: 'status' };
  } catch (err) {
    return { outcome: 'retry', status: 0, ...causeOf(err) };
  }
}

function encrypted(lib: typeof webpush, row: Claimed, payload: PushPayload, keys: VapidKeys) {
  return lib.generateRequestDetails({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, JSON.stringify(payload), {
    vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: TTL_SECONDS,
    contentEncoding: 'aes128gcm',
    urgency: 'high',
    topic: `n${row.notification_id}`,
  });
}

/** Records one send's outcome: the row gone, the device gone, or the row back in the queue for later. */
async function settle(db: DB, row: Claimed, outcome: Outcome, now: number, retryMs: number): Promise<Outcome> {
  const result = outcome === 'retry' && row.attempts >= MAX_ATTEMPTS ? 'drop' : outcome;
  await writeTx(db, async (tx) => {
    if (result === 'gone') {
      await tx.deleteFrom('push_queue').where('subscription_id', '=', row.subscription_id).execute();
      await tx.deleteFrom('push_subscriptions').where('id', '=', row.subscription_id).execute();
    } else if (result === 'retry') {
      await tx.updateTable('push_queue').set({ next_at: now + retryMs * 2 ** (row.attempts - 1), claimed_until: 0 }).where('id', '=', row.id).execute();
    } else {
      await tx.deleteFrom('push_queue').where('id', '=', row.id).execute();
    }
  });
  return result;
}

/** One line per failed send, with its cause, so an operator can tell a push service that is down from a DNS
 *  or TLS problem on this side. Only the endpoint's host is logged: its path is the device's secret. A push
 *  given up (dropped) is an error; a retry, or a device the push service says is gone, is information. */
function logFailure(log: Logger, row: Claimed, sent: Sent, result: Outcome): void {
  let host: string;
  try {
    host = new URL(row.endpoint).hostname;
  } catch {
    host = '(not a URL)';
  }
  const line = { notice: row.notification_id, subscription: row.subscription_id, host, attempt: row.attempts, cause: sent.cause ?? 'network', status: sent.status, ...(sent.code ? { code: sent.code } : {}), outcome: result };
  if (result === 'drop') log.error('push: send failed', line);
  else log.info('push: send failed', line);
}

/** Sends the pushes that are due (at most `limit` per call): claim, send, record. */
export async function sendDuePushes(deps: SenderDeps, limit = PUSH_BATCH): Promise<PushReport> {
  const report: PushReport = { sent: 0, retried: 0, removed: 0, dropped: 0 };
  const keys = vapidKeys(deps.config);
  if (!keys) return report;
  const ids = await claim(deps.db, deps.clock.now(), limit);
  if (ids.length === 0) return report;
  const rows = await claimedRows(deps.db, ids);
  const unread = await unreadCounts(deps.db, [...new Set(rows.map((r) => r.user_id))]);
  await Promise.all(
    rows.map(async (row) => {
      const sent = await sendOne(row, pushPayload(row, unread.get(row.user_id) ?? 0), keys, deps.config.PUSH_HOSTS);
      const result = await settle(deps.db, row, sent.outcome, deps.clock.now(), deps.config.PUSH_RETRY_MS);
      if (result === 'sent') report.sent++;
      else if (result === 'retry') report.retried++;
      else if (result === 'gone') report.removed++;
      else report.dropped++;
      if (result !== 'sent') logFailure(deps.log, row, sent, result);
    }),
  );
  // Rows claimed whose subscription or notice is gone meanwhile: nothing to send.
  const orphans = ids.filter((id) => !rows.some((r) => r.id === id));
  if (orphans.length > 0) await writeTx(deps.db, (tx) => tx.deleteFrom('push_queue').where('id', 'in', orphans).execute());
  return report;
}
