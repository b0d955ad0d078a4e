import type { Context } from 'hono';
import type { AppEnv } from '../app';
import { AppError, ok } from './http';
import { sha256 } from './crypto';
import { withBeforeCommit, type Tx } from '../db/tx';

// DECISIONS "Writes and retries": every write carries an Idempotency-Key chosen per user intent. The first
// successful answer is stored with the key and the caller; a retry with the same key gets it back with no
// second effect; the same key with another payload is refused; a duplicate arriving while the first is
// still running is refused without effect. A refusal (code > 0) has no effect and is not stored, so the
// same intent may be retried after fixing the cause.

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A pending key older than this, with nothing committed, was left by a crash: the next retry takes it over. */
const PENDING_LEASE_MS = 120_000;

export async function idempotent<T>(
  c: Context<AppEnv>,
  userId: number,
  payload: Record<string, unknown>,
  run: () => Promise<T>,
): Promise<Response> {
  const key = c.req.header('idempotency-key')?.trim() ?? '';
  if (!KEY_PATTERN.test(key)) throw new AppError('invalid_request', undefined, { field: 'Idempotency-Key' });
  const { db, clock } = c.get('deps');
  const endpoint = c.req.path;
  const hash = sha256(`${endpoint}\n${canonical(payload)}`);
  const now = clock.now();

  // 1. Claim the key. A duplicate arriving while the first runs finds the claim and is refused.
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, endpoint, request_hash: hash, state: 'pending', response: null, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .executeTakeFirst();

  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const row = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
    if (!row) throw new AppError('idempotency_in_progress'); // released by a refusal a moment ago: try again
    if (row.request_hash !== hash) throw new AppError('idempotency_mismatch');
    if (row.state === 'done' && row.response !== null) {
      c.header('Idempotent-Replayed', 'true');
      return ok(c, JSON.parse(row.response) as unknown);
    }
    // Still running, or its effect committed but the answer was lost: never run it a second time.
    if (row.state !== 'pending' || now - row.created_at < PENDING_LEASE_MS) throw new AppError('idempotency_in_progress');
    // A claim abandoned by a crash before anything committed: take it over (only one retry wins).
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ created_at: now })
      .where('id', '=', row.id)
      .where('state', '=', 'pending')
      .where('created_at', '=', row.created_at)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw new AppError('idempotency_in_progress');
  }

  // 2. Run the write. Every write transaction it opens marks the key 'committed' in that same
  //    transaction, so the effect and the record that it happened commit together or not at all.
  let committed = false;
  const markCommitted = async (tx: Tx) => {
    if (committed) return;
    await tx.updateTable('idempotency_keys').set({ state: 'committed' }).where('user_id', '=', userId).where('key', '=', key).execute();
    committed = true;
  };
  let data: T;
  try {
    data = await withBeforeCommit(markCommitted, run);
  } catch (err) {
    // A refusal has no business effect (a counted wrong password is the rule itself): release the key so
    // the same intent can be retried. An unexpected error releases it only if nothing committed.
    if (err instanceof AppError || !committed) {
      await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
    }
    throw err;
  }

  // 3. Keep the answer for retries. If this write fails the key stays 'committed' and retries are refused
  //    rather than repeated.
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response: JSON.stringify(data ?? null) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
  return ok(c, data);
}
