import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import { writeTx } from '../../db/tx';
import type { Config } from '../../config';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/log';
import { notify } from '../../live/notices';
import { postWebhook, type TryResult } from './post';
import { signedHeaders } from './signing';

// The sender of webhooks (docs/decisions/0044-webhooks.md). Every instance runs it on its own timer; a
// delivery (webhook/outbox.ts) is sent by the instance that claims it, as the push queue's rows are: the
// claim commits `claimed_until` (a lease) before the try, so two instances never try the same delivery at
// once, and one whose instance died (kill -9) is tried again when the lease ends. Every try of an event
// carries the event's webhook-id, so the receiver drops the rare repeat.
// A slow receiver holds only itself: an endpoint with a try in flight is not claimed from (on any
// instance), one claim takes at most PER_ENDPOINT of an endpoint's deliveries, a try ends at
// WEBHOOK_TIMEOUT_MS, and the timer does not wait for tries in flight, only for a free slot.
// Answers: 2xx delivered; anything else, or no answer, is tried again after the next wait of
// WEBHOOK_RETRY_SCHEDULE_MS; when the last try fails the endpoint is disabled and its owner told.

/** Deliveries of one endpoint one claim takes (tried together). */
const PER_ENDPOINT = 4;
/** Tries one instance has in flight at most. */
const IN_FLIGHT_MAX = 64;

interface SenderDeps {
  db: DB;
  config: Config;
  clock: Clock;
  log: Logger;
}

interface Claimed {
  id: number;
  attempts: number;
  endpoint_id: number;
  owner_id: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  msg_id: string;
  payload: string;
}

/** The lease of a claim: longer than every try it covers can take. */
const leaseMs = (config: Config) => config.WEBHOOK_TIMEOUT_MS * 2 + 10_000;

/** Claims up to `limit` due deliveries of enabled endpoints that have no try in flight anywhere. */
async function claim(db: DB, now: number, limit: number, lease: number): Promise<number[]> {
  return writeTx(db, async (tx) => {
    const due = await sql<{ id: number }>`
      select id from (
        select d.id, d.next_at, row_number() over (partition by d.endpoint_id order by d.next_at, d.id) as rn
        from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_at <= ${now} and d.claimed_until <= ${now} and e.disabled_at is null
          and not exists (select 1 from webhook_deliveries f where f.endpoint_id = d.endpoint_id and f.status = 'pending' and f.claimed_until > ${now})
      ) t
      where rn <= ${PER_ENDPOINT}
      order by next_at, id
      limit ${limit}`.execute(tx);
    if (due.rows.length === 0) return [];
    const rows = await tx
      .updateTable('webhook_deliveries')
      .set((eb) => ({ claimed_until: now + lease, attempts: eb('attempts', '+', 1) }))
      .where(
        'id',
        'in',
        due.rows.map((r) => Number(r.id)),
      )
      // Checked again on the row as it stands (another instance's claim may have committed meanwhile).
      .where('claimed_until', '<=', now)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  });
}

function claimedRows(db: DB, ids: number[]): Promise<Claimed[]> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .select(['d.id', 'd.attempts', 'd.endpoint_id', 'e.owner_id', 'e.url', 'e.secret', 'e.previous_secret', 'e.previous_until', 'v.msg_id', 'v.payload'])
    .where('d.id', 'in', ids)
    .execute();
}

/** The endpoint as a notice names it: its origin and id. Its path and query often carry the receiver's own
 *  credential, and a notice is read by every member of the account, not only those who keep its endpoints. */
function endpointName(row: Pick<Claimed, 'url' | 'endpoint_id'>): string {
  let origin: string;
  try {
    origin = new URL(row.url).origin;
  } catch {
    origin = 'its receiver';
  }
  return `${origin} (#${row.endpoint_id})`;
}

/** Records one try: its log row, and the delivery delivered, due again, or failed (its endpoint disabled). */
async function settle(deps: SenderDeps, row: Claimed, result: TryResult): Promise<'delivered' | 'retry' | 'failed'> {
  const now = deps.clock.now();
  const schedule = deps.config.WEBHOOK_RETRY_SCHEDULE_MS;
  const ok = result.status >= 200 && result.status < 300;
  const outcome = ok ? 'delivered' : row.attempts > schedule.length ? 'failed' : 'retry';
  await writeTx(deps.db, async (tx, w) => {
    const moved =
      outcome === 'retry'
        ? await tx.updateTable('webhook_deliveries').set({ next_at: now + schedule[row.attempts - 1]!, claimed_until: 0 }).where('id', '=', row.id).executeTakeFirst()
        : await tx.updateTable('webhook_deliveries').set({ status: outcome, settled_at: now, claimed_until: 0 }).where('id', '=', row.id).executeTakeFirst();
    // The endpoint was deleted during the try (its deliveries and log with it): nothing to record.
    if (Number(moved.numUpdatedRows) === 0) return;
    await tx
      .insertInto('webhook_attempts')
      .values({ delivery_id: row.id, endpoint_id: row.endpoint_id, attempt: row.attempts, status_code: result.status, latency_ms: result.latencyMs, error: result.error, created_at: now })
      .execute();
    if (outcome === 'failed') {
      const disabled = await tx.updateTable('webhook_endpoints').set({ disabled_at: now }).where('id', '=', row.endpoint_id).where('disabled_at', 'is', null).executeTakeFirst();
      if (Number(disabled.numUpdatedRows) === 1) {
        const where = endpointName(row);
        await notify(
          w,
          row.owner_id,
          {
            title: 'Webhook endpoint disabled',
            title_cn: 'Webhook 端点已停用',
            body: `Deliveries to ${where} failed for three days, so nothing more is sent to it. Fix the receiver, then ping it or resend a delivery to turn it back on.`,
            body_cn: `向 ${where} 的投递已连续三天失败，因此不再向其发送。请修复接收端，然后发送测试或重新投递以重新启用。`,
            url: '/pages/developer/webhooks',
          },
          now,
        );
      }
    }
  });
  return outcome;
}

async function tryOne(deps: SenderDeps, row: Claimed): Promise<void> {
  const now = deps.clock.now();
  const secrets = [row.secret, ...(row.previous_secret && (row.previous_until ?? 0) > now ? [row.previous_secret] : [])];
  const headers = signedHeaders(secrets, row.msg_id, Math.floor(now / 1000), row.payload);
  const result = await postWebhook(row.url, row.payload, headers, { timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS, allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE });
  const outcome = await settle(deps, row, result);
  if (outcome === 'failed') deps.log.error(`webhook: delivery #${row.id} to endpoint #${row.endpoint_id} failed for good (status ${result.status}, ${result.error ?? 'answered'}); endpoint disabled`);
}

export interface WebhookSender {
  start(): void;
  stop(): Promise<void>;
  /** Claims what is due now and starts its tries; resolves when they have all been recorded (tests). */
  runOnce(): Promise<number>;
}

export function createWebhookSender(deps: SenderDeps): WebhookSender {
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;

  /** Claims what this instance has room for and starts the tries without waiting for them. */
  async function dispatch(): Promise<Promise<void>[]> {
    const room = IN_FLIGHT_MAX - inFlight.size;
    if (room <= 0) return [];
    const ids = await claim(deps.db, deps.clock.now(), room, leaseMs(deps.config));
    if (ids.length === 0) return [];
    const rows = await claimedRows(deps.db, ids);
    return rows.map((row) => {
      const p = tryOne(deps, row)
        .catch((err: unknown) => deps.log.error(`webhook: delivery #${row.id} try failed to record`, err))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      return p;
    });
  }

  return {
    start() {
      if (timer) return;
      const next = () => {
        timer = setTimeout(() => {
          ticking = dispatch()
            .then(() => undefined)
            .catch((err: unknown) => deps.log.error('webhook sender run failed', err))
            .finally(() => {
              ticking = null;
              if (timer) next();
            });
        }, deps.config.WEBHOOK_POLL_MS);
        timer.unref();
      };
      next();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await ticking;
      await Promise.all([...inFlight]);
    },
    async runOnce() {
      const started = await dispatch();
      await Promise.all(started);
      return started.length;
    },
  };
}
