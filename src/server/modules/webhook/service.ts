import type { Selectable } from 'kysely';
import type { WebhookEndpointsTable } from '../../db/schema';
import { writeTx, type EffectRecord, type Tx } from '../../db/tx';
import type { Deps } from '../../env';
import { AppError } from '../../lib/http';
import { WEBHOOK_ENDPOINTS_MAX, type WebhookAttemptPage, type WebhookCreate, type WebhookEndpoint, type WebhookEventType, type WebhookList, type WebhookSecret } from '../../../shared/schemas/webhook';
import { hostOf, literalRefused } from './address';
import { emitWebhookEvent } from './outbox';
import { newSecret, SECRET_PREFIX } from './signing';

// Webhook endpoints (docs/product.md#webhooks): an account's receivers, kept by its owner and admins (a
// person keeps their own). The secret is shown when made (added, rotated) and never again; after a rotation
// the old one signs too for ROTATION_OVERLAP_MS, so a receiver can switch without losing a delivery.

const ROTATION_OVERLAP_MS = 24 * 3_600_000;

type EndpointRow = Selectable<WebhookEndpointsTable>;

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return { id: r.id, url: r.url, events: JSON.parse(r.events) as WebhookEventType[], mode: r.mode, created_at: r.created_at, disabled_at: r.disabled_at };
}

/** The receiver's URL as this server's configuration allows it: https (plain http only with
 *  WEBHOOK_ALLOW_PRIVATE), and not an address literal it may never send to. Names are checked at send. */
function checkUrl(deps: Deps, url: string): void {
  const u = new URL(url);
  if (u.protocol !== 'https:' && !deps.config.WEBHOOK_ALLOW_PRIVATE) throw new AppError('webhook_url_invalid', undefined, { field: 'url' });
  if (literalRefused(hostOf(u), deps.config.WEBHOOK_ALLOW_PRIVATE)) throw new AppError('webhook_url_private', undefined, { field: 'url' });
}

async function ownEndpoint(tx: Tx, owner: number, id: number): Promise<EndpointRow> {
  const row = await tx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('owner_id', '=', owner).executeTakeFirst();
  if (!row) throw new AppError('webhook_not_found');
  return row;
}

export async function listEndpoints(deps: Deps, owner: number): Promise<WebhookList> {
  const rows = await deps.db.selectFrom('webhook_endpoints').selectAll().where('owner_id', '=', owner).orderBy('id', 'desc').execute();
  return { list: rows.map(toEndpoint) };
}

export function createEndpoint(deps: Deps, owner: number, creator: number, input: WebhookCreate & { events: WebhookEventType[] }, record?: EffectRecord): Promise<WebhookSecret> {
  checkUrl(deps, input.url);
  return writeTx(
    deps.db,
    async (tx) => {
      const { n } = await tx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number | string>().as('n')).where('owner_id', '=', owner).executeTakeFirstOrThrow();
      if (Number(n) >= WEBHOOK_ENDPOINTS_MAX) throw new AppError('webhook_endpoints_full', { n: WEBHOOK_ENDPOINTS_MAX });
      const secret = newSecret();
      const row = await tx
        .insertInto('webhook_endpoints')
        .values({ owner_id: owner, mode: input.mode, url: input.url, events: JSON.stringify(input.events), secret, previous_secret: null, previous_until: null, created_by: creator, created_at: deps.clock.now(), disabled_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...toEndpoint(row), secret: `${SECRET_PREFIX}${secret}` };
    },
    record,
  );
}

export function rotateSecret(deps: Deps, owner: number, id: number, record?: EffectRecord): Promise<WebhookSecret> {
  return writeTx(
    deps.db,
    async (tx) => {
      const row = await ownEndpoint(tx, owner, id);
      const secret = newSecret();
      const now = deps.clock.now();
      const updated = await tx
        .updateTable('webhook_endpoints')
        .set({ secret, previous_secret: row.secret, previous_until: now + ROTATION_OVERLAP_MS })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...toEndpoint(updated), secret: `${SECRET_PREFIX}${secret}` };
    },
    record,
  );
}

/** Removes the endpoint with its deliveries and their log: nothing more is sent to it. */
export function deleteEndpoint(deps: Deps, owner: number, id: number, record?: EffectRecord): Promise<{ id: number }> {
  return writeTx(
    deps.db,
    async (tx) => {
      const row = await ownEndpoint(tx, owner, id);
      await tx.deleteFrom('webhook_attempts').where('endpoint_id', '=', row.id).execute();
      await tx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', row.id).execute();
      await tx.deleteFrom('webhook_endpoints').where('id', '=', row.id).execute();
      return { id: row.id };
    },
    record,
  );
}

/** Sends a `ping` event to this endpoint alone; a disabled endpoint is enabled again (its owner says the
 *  receiver is fixed). */
export function pingEndpoint(deps: Deps, owner: number, id: number, record?: EffectRecord): Promise<{ msg_id: string }> {
  return writeTx(
    deps.db,
    async (tx) => {
      const row = await ownEndpoint(tx, owner, id);
      const now = deps.clock.now();
      if (row.disabled_at !== null) await tx.updateTable('webhook_endpoints').set({ disabled_at: null }).where('id', '=', row.id).execute();
      const msgId = await emitWebhookEvent(tx, { owner, mode: row.mode, type: 'ping', data: { endpoint_id: row.id }, endpointId: row.id }, now);
      return { msg_id: msgId! };
    },
    record,
  );
}

/** Sends a delivery's event to its endpoint again, with the same webhook-id, as a new delivery (its own
 *  tries); a disabled endpoint is enabled again. */
export function resendDelivery(deps: Deps, owner: number, deliveryId: number, record?: EffectRecord): Promise<{ delivery_id: number }> {
  return writeTx(
    deps.db,
    async (tx) => {
      const d = await tx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select(['d.endpoint_id', 'd.event_id', 'e.disabled_at'])
        .where('d.id', '=', deliveryId)
        .where('e.owner_id', '=', owner)
        .executeTakeFirst();
      if (!d) throw new AppError('webhook_delivery_not_found');
      const now = deps.clock.now();
      if (d.disabled_at !== null) await tx.updateTable('webhook_endpoints').set({ disabled_at: null }).where('id', '=', d.endpoint_id).execute();
      const { id } = await tx
        .insertInto('webhook_deliveries')
        .values({ endpoint_id: d.endpoint_id, event_id: d.event_id, status: 'pending', next_at: now, created_at: now, settled_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { delivery_id: id };
    },
    record,
  );
}

/** The endpoint's delivery log: one line per try, newest first. */
export async function deliveryLog(deps: Deps, owner: number, q: { id: number; page: number; page_size: number }): Promise<WebhookAttemptPage> {
  const { db } = deps;
  const endpoint = await db.selectFrom('webhook_endpoints').select('id').where('id', '=', q.id).where('owner_id', '=', owner).executeTakeFirst();
  if (!endpoint) throw new AppError('webhook_not_found');
  const base = db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .where('a.endpoint_id', '=', q.id);
  const [rows, count] = await Promise.all([
    base
      .select(['a.id', 'a.delivery_id', 'v.msg_id', 'v.type', 'a.attempt', 'd.status', 'a.status_code', 'a.latency_ms', 'a.error', 'a.created_at'])
      .orderBy('a.id', 'desc')
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => ({ ...r, type: r.type as WebhookEventType })), total: Number(count.n), page: q.page, page_size: q.page_size };
}
