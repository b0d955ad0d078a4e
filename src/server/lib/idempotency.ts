import type { Context } from 'hono';
import type { AppEnv } from '../app';
import { AppError, ok } from './http';
import { sha256 } from './crypto';

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

  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, endpoint, request_hash: hash, state: 'pending', response: null, created_at: clock.now() })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .executeTakeFirst();

  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    const row = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
    if (!row) throw new AppError('idempotency_in_progress'); // released by a refusal a moment ago: try again
    if (row.request_hash !== hash) throw new AppError('idempotency_mismatch');
    if (row.state !== 'done' || row.response === null) throw new AppError('idempotency_in_progress');
    c.header('Idempotent-Replayed', 'true');
    return ok(c, JSON.parse(row.response) as unknown);
  }

  try {
    const data = await run();
    await db
      .updateTable('idempotency_keys')
      .set({ state: 'done', response: JSON.stringify(data ?? null) })
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .execute();
    return ok(c, data);
  } catch (err) {
    await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
    throw err;
  }
}
