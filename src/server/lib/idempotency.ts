import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { AppError, ok } from './http';
import { hmac, serverSecret } from './secret';
import { sql } from 'kysely';
import type { EffectRecord, WriteScope } from '../db/tx';
import { prepared } from '../db/prepared';
import { dialectOf } from '../db/connection';
import { activityOf, insertActivity, membershipCheck, type Activity } from './activity';

// docs/product.md#writes-and-retries: every write carries an Idempotency-Key chosen per user intent.
// - The key, the effect and the answer commit in ONE transaction (the request's effect transaction, see
//   db/tx.ts): there is no moment at which an effect exists without its stored answer, and a crash before
//   the commit leaves nothing, so the retry simply runs (no lease to wait out).
// - A retry with the same key gets the stored answer back (header Idempotent-Replayed: true) and no
//   second effect. A duplicate that arrives while the first runs waits for it (in this process a chain
//   per key; across instances its effect finds the key taken as it commits and is rolled back) and then
//   gets the first answer; so does one whose own checks are refused because of what the first did.
// - The fingerprint covers the whole request (endpoint and every field, secrets included), keyed with the
//   server's secret (HMAC-SHA256), so a password is never stored in clear nor as a plain fast hash; the
//   same key with any other payload is refused.
// - A refusal (code > 0) has no effect and stores nothing, so the same intent may be retried after fixing
//   the cause.

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

// The key's two statements on every idempotent write, built once (db/prepared.ts).
const keyRow = prepared((db, p: { userId: number; scope: string; key: string }) =>
  db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', p.userId).where('scope', '=', p.scope).where('key', '=', p.key),
);
const claimKey = prepared((db, p: { userId: number; scope: string; key: string; endpoint: string; hash: string; response: string; now: number }) =>
  db
    .insertInto('idempotency_keys')
    .values({ user_id: p.userId, scope: p.scope, key: p.key, endpoint: p.endpoint, request_hash: p.hash, state: 'done', response: p.response, created_at: p.now })
    .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing()),
);

/** PostgreSQL: the keys of a batch of requests (db/tx.ts Batcher) claimed in one insert; the ones it
 *  returns are the ones claimed. */
const claimKeys = prepared((db, p: { rows: string }) => ({
  compile: () =>
    sql<{ user_id: number; key: string }>`insert into idempotency_keys (user_id, scope, key, endpoint, request_hash, state, response, created_at)
    select user_id, scope, key, endpoint, request_hash, 'done', response, created_at
    from json_to_recordset(${p.rows}::json) as x(ord int, user_id bigint, scope text, key text, endpoint text, request_hash text, response text, created_at bigint)
    order by ord
    on conflict (user_id, scope, key) do nothing
    returning user_id, key`.compile(db),
}));

interface KeyClaim {
  userId: number;
  scope: string;
  key: string;
  endpoint: string;
  hash: string;
  response: string;
  now: number;
}

/** The effect record of one idempotent request (see runOnce). */
interface KeyRecord extends EffectRecord {
  /** The row that claims the key with `result` as its answer. */
  claim(result: unknown): KeyClaim;
  /** The claim was inserted: the request's answer is `result`. */
  claimed(result: unknown): void;
  /** The organisation's activity row this request leaves with its key (lib/activity.ts), or null. */
  readonly activity: Activity | null;
}

/** The end of a batch's key records (db/tx.ts EffectRecord.endMany): every claim in one statement on
 *  PostgreSQL (sent ahead, checked when its answer comes), one after the other on SQLite. A key taken
 *  meanwhile (a duplicate on another instance committed first) fails the batch, whose jobs then run alone:
 *  that one finds its key taken there and replays the first answer. */
async function endKeyRecords(w: WriteScope, ends: readonly { record: EffectRecord; result: unknown }[]): Promise<void> {
  if (dialectOf(w.tx) !== 'postgres') {
    // One after the other, each as its record's own end() claims it.
    for (const { record, result } of ends) await record.end(w, result);
    return;
  }
  const list = ends.map(({ record, result }) => ({ record: record as KeyRecord, result, claim: (record as KeyRecord).claim(result) }));
  const rows = list.map(({ claim }, ord) => ({ ord, user_id: claim.userId, scope: claim.scope, key: claim.key, endpoint: claim.endpoint, request_hash: claim.hash, response: claim.response, created_at: claim.now }));
  await w.ahead(claimKeys.compile(w.tx, { rows: JSON.stringify(rows) }), ({ rows: inserted }) => {
    if (inserted.length !== list.length) throw new KeyTaken();
    for (const { record, result } of list) record.claimed(result);
  });
  const done = list.flatMap(({ record, result, claim }) => (record.activity ? [{ activity: record.activity, result, now: claim.now }] : []));
  if (done.length > 0) await writeActivity(w, done, done[0]!.now);
}

/** The activity rows of a write transaction's requests, after the check that their members still may. */
async function writeActivity(w: WriteScope, done: readonly { activity: Activity; result: unknown }[], now: number): Promise<void> {
  const still = membershipCheck(w.tx, done.map((d) => d.activity));
  if (still) await w.ahead(still.query, still.check);
  await w.ahead(insertActivity(w.tx, done, now));
}

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Raised inside the effect transaction when the key is already taken: rolls the attempt back. */
export class KeyTaken extends Error {}

/** Claims a key the server derives itself for a write no request carries a key for (a monthly offset's
 *  buy, docs/decisions/0035-monthly-offset.md), in the write transaction of its effect, as a request's key
 *  is claimed: when another instance claimed it first, KeyTaken rolls this effect back. */
export async function claimDerivedKey(w: WriteScope, secret: Buffer, p: { userId: number; key: string; endpoint: string; payload: Record<string, unknown>; response: unknown; now: number }): Promise<void> {
  const claim = { userId: p.userId, scope: '', key: p.key, endpoint: p.endpoint, hash: hmac(secret, `${p.endpoint}\n${canonical(p.payload)}`), response: JSON.stringify(p.response ?? null), now: p.now };
  await w.ahead(claimKey.compile(w.tx, claim), (inserted) => {
    if (Number(inserted.numAffectedRows ?? 0) === 0) throw new KeyTaken();
  });
}

/** The record of a write whose stored answer is another shape than the transaction's result (a /v1 order
 *  answered as the integrators' order, modules/v1): the key is claimed with `map(result)`. Without endMany,
 *  its job runs alone, never in a batch. */
export function answerAs(record: EffectRecord, map: (result: unknown) => unknown): EffectRecord {
  return { begin: (w) => record.begin(w), end: (w, result) => record.end(w, map(result)), undo: () => record.undo() };
}

/** Requests of this process per user and key, chained: a duplicate waits for the one before it to end,
 *  then finds its stored answer (another instance's duplicates meet at the key's row instead). */
const inflight = new Map<string, Promise<void>>();

async function oneAtATime<T>(id: string, fn: () => Promise<T>): Promise<T> {
  const before = inflight.get(id) ?? Promise.resolve();
  let release!: () => void;
  const mine = before.then(() => new Promise<void>((resolve) => (release = resolve)));
  inflight.set(id, mine);
  await before;
  try {
    return await fn();
  } finally {
    release();
    if (inflight.get(id) === mine) inflight.delete(id);
  }
}

export async function idempotent<T>(
  c: Context<AppEnv>,
  userId: number,
  payload: Record<string, unknown>,
  run: (record: EffectRecord) => Promise<T>,
  /** Keys of a space of their own: an API key's (`ak<id>:`), so two keys of one account, or a key and a
   *  member, never meet at the same Idempotency-Key (docs/product.md#integrators). */
  space = '',
): Promise<Response> {
  const key = c.req.header('idempotency-key')?.trim() ?? '';
  if (!KEY_PATTERN.test(key)) throw new AppError('invalid_request', undefined, { field: 'Idempotency-Key' });
  const scope = space || keyScope(c, userId);
  return oneAtATime(`${userId}\n${scope}\n${key}`, () => runOnce(c, userId, scope, key, payload, run));
}

/** Whose key it is within the account `userId` the request acts for (docs/decisions/0040-per-person-scopes.md):
 *  '' the account's own login; 'member:<id>' a member acting for the organisation, so a colleague who
 *  happens to send the same key gets her own effect, never the first member's answer. An API key's requests
 *  carry a space of their own instead (`idempotent`'s last argument). */
function keyScope(c: Context<AppEnv>, userId: number): string {
  const acting = c.get('acting');
  return acting && acting.accountId === userId && acting.memberId !== userId ? `member:${acting.memberId}` : '';
}

/** The request as its key record knows it: the sender's key, the endpoint and the hash of its payload. */
interface KeyedRequest {
  userId: number;
  scope: string;
  key: string;
  endpoint: string;
  hash: string;
}

async function runOnce<T>(c: Context<AppEnv>, userId: number, scope: string, key: string, payload: Record<string, unknown>, run: (record: EffectRecord) => Promise<T>): Promise<Response> {
  const { db, clock, config } = c.get('deps');
  const endpoint = c.req.path;
  const req: KeyedRequest = { userId, scope, key, endpoint, hash: hmac(serverSecret(config), `${endpoint}\n${canonical(payload)}`) };

  // 1. Answered before: the same answer, nothing runs.
  const earlier = await storedAnswer(c, req);
  if (earlier) return earlier;

  // 2. Run, with the key record its effect transaction claims the key with (keyRecord).
  const activity = activityOf(c, payload);
  const effect = keyRecord(req, () => clock.now(), activity);
  let data: T;
  try {
    data = await run(effect.record);
  } catch (err) {
    return refusedAnswer(c, req, err);
  }
  if (effect.recorded()) return ok(c, effect.answer());

  // 3. A request whose work needed no write transaction: keep its answer too, so a retry reads the same.
  const inserted = await claimKey.execute(db, { ...req, response: JSON.stringify(data ?? null), now: clock.now() });
  if (Number(inserted.numAffectedRows ?? 0) === 0) {
    const first = await storedAnswer(c, req);
    if (first) return first;
  }
  if (activity) await insertActivity(db, [{ activity, result: data }], clock.now()).execute();
  return ok(c, data);
}

/** The stored answer of this key, or null when the key has none yet. */
async function storedAnswer(c: Context<AppEnv>, req: KeyedRequest): Promise<Response | null> {
  const { db, metrics } = c.get('deps');
  const row = (await keyRow.execute(db, { userId: req.userId, scope: req.scope, key: req.key })).rows[0];
  if (!row) return null;
  if (row.request_hash !== req.hash) throw new AppError('idempotency_mismatch');
  // Only rows of an older version can lack their answer (their effect committed without it).
  if (row.state !== 'done' || row.response === null) throw new AppError('idempotency_in_progress');
  c.header('Idempotent-Replayed', 'true');
  metrics?.idempotencyReplays.inc();
  return ok(c, JSON.parse(row.response) as unknown);
}

/** A run that threw: the first answer when a duplicate got there first, else the error. */
async function refusedAnswer(c: Context<AppEnv>, req: KeyedRequest, err: unknown): Promise<Response> {
  if (err instanceof KeyTaken) {
    const first = await storedAnswer(c, req);
    if (first) return first;
    throw new AppError('idempotency_in_progress');
  }
  // A duplicate whose checks ran after the first one committed is refused by what the first did (the
  // withdrawal of the day exists now): it gets the first answer instead.
  if (err instanceof AppError) {
    const first = await storedAnswer(c, req).catch(() => null);
    if (first) return first;
  }
  throw err;
}

/** The key record the write transaction `run` hands it to (db/tx.ts writeTx) is the request's effect: it
 *  claims the key and stores the answer (the transaction's result) in one insert just before it commits.
 *  Write transactions never interleave (db/tx.ts: one writer on SQLite, one advisory lock on PostgreSQL),
 *  so claiming at the end is as safe as at the start and costs one statement instead of two: when the key
 *  is taken by then (a duplicate on another instance committed first), the insert adds nothing, the effect
 *  is rolled back to its savepoint and the first answer is replayed. */
function keyRecord(req: KeyedRequest, now: () => number, activity: Activity | null) {
  let recorded = false;
  let answer: unknown;
  const record: KeyRecord = {
    begin: () => (recorded ? Promise.reject(new Error('an idempotent request may commit only one effect transaction')) : Promise.resolve()),
    activity,
    claim: (result) => ({ ...req, response: JSON.stringify(result ?? null), now: now() }),
    claimed: (result) => {
      recorded = true;
      answer = result ?? null;
    },
    end: async (w: WriteScope, result: unknown) => {
      // On PostgreSQL the group does not wait for the claim's answer before it starts the next job; it checks
      // it before it counts this job done (db/tx.ts WriteScope). SQLite runs and checks it at once.
      await w.ahead(claimKey.compile(w.tx, record.claim(result)), (inserted) => {
        if (Number(inserted.numAffectedRows ?? 0) === 0) throw new KeyTaken();
        record.claimed(result);
      });
      if (activity) await writeActivity(w, [{ activity, result }], now());
    },
    endMany: endKeyRecords,
    undo: () => {
      recorded = false;
      answer = undefined;
    },
  };
  return { record, recorded: () => recorded, answer: () => answer };
}
