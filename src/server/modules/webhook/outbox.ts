import { randomBytes } from 'node:crypto';
import type { Tx, WriteScope } from '../../db/tx';
import type { WebhookEventType, WebhookMode } from '../../../shared/schemas/webhook';

// The one writer of webhook events (docs/decisions/0044-webhooks.md). An event is written in the caller's
// write transaction, the one of its effect: the event row and one delivery row per enabled endpoint of the
// owner and mode that takes its type. So a committed effect is always delivered (the sender,
// webhook/sender.ts, works from the rows after the commit, also after a crash) and a rolled-back one never is.

export interface WebhookEventInput {
  /** The account whose event it is: a users.id, a person's or an organisation's account (the owner of its
   *  ledger accounts and orders). */
  owner: number;
  mode: WebhookMode;
  type: WebhookEventType;
  /** The event's object (an order, a retirement...), as the integrators' API shows it. */
  data: Record<string, unknown>;
  /** Only this endpoint, whatever events it takes (a ping). */
  endpointId?: number;
}

/** A webhook-id: unique per event, the same on every delivery and retry of it (receivers dedupe on it). */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

function scopeOf(trx: Tx | WriteScope): { tx: Tx; now: number } {
  return { tx: 'ahead' in trx ? trx.tx : trx, now: Date.now() };
}

/** Writes the event and its deliveries in `trx` (the effect's transaction, or its WriteScope); returns the
 *  event's webhook-id, or null when no endpoint takes it (nothing written). `at`: the effect's time (the
 *  `now` of its transaction, from deps.clock, which the sender compares with); the wall clock when absent. */
export async function emitWebhookEvent(trx: Tx | WriteScope, event: WebhookEventInput, at?: number): Promise<string | null> {
  const { tx, now: wall } = scopeOf(trx);
  const now = at ?? wall;
  let q = tx.selectFrom('webhook_endpoints').select(['id', 'events']).where('owner_id', '=', event.owner).where('mode', '=', event.mode).where('disabled_at', 'is', null);
  if (event.endpointId !== undefined) q = q.where('id', '=', event.endpointId);
  const endpoints = (await q.execute()).filter((e) => event.endpointId !== undefined || (JSON.parse(e.events) as string[]).includes(event.type));
  if (endpoints.length === 0) return null;
  const msgId = newMessageId();
  const payload = JSON.stringify({ type: event.type, timestamp: new Date(now).toISOString(), data: event.data });
  const { id } = await tx
    .insertInto('webhook_events')
    .values({ msg_id: msgId, owner_id: event.owner, mode: event.mode, type: event.type, payload, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('webhook_deliveries')
    .values(endpoints.map((e) => ({ endpoint_id: e.id, event_id: id, status: 'pending' as const, next_at: now, created_at: now, settled_at: null })))
    .execute();
  return msgId;
}
