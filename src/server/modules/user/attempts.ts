import { sql } from 'kysely';
import type { Config } from '../../config';
import type { DB } from '../../db/connection';
import type { Clock } from '../../lib/clock';
import { checkIn, type HashLane } from '../../lib/hash-work';
import { writeTx, type WriteScope } from '../../db/tx';
import { LOGIN_MAX_ATTEMPTS, PASSWORD_MAX_ATTEMPTS } from '../../../shared/constants';

// Counted passwords (docs/product.md#accounts: 5 attempts, then a lock). An attempt is RESERVED in the same
// statement that reads the count, before the hash runs: a conditional UPDATE ... RETURNING that only succeeds
// while the account is unlocked and fewer than the maximum attempts are used or in flight. So N parallel
// guesses evaluate at most the attempts left, and a right password that arrives after the lock (or while the
// last attempts are being evaluated) is refused without being looked at. The reservation happens when the
// hash lane has a slot for it, so a request refused by the lane costs no attempt. A right password clears the
// count (and replaces an old-format hash); a wrong one keeps its reservation, and the one that reaches the
// maximum locks the account in a conditional UPDATE (only one request "locks", the others see it).

export type Counter = 'login' | 'trade';

const COLUMNS = {
  login: { fails: 'login_fails', locked: 'login_locked', hash: 'password_hash', max: LOGIN_MAX_ATTEMPTS },
  trade: { fails: 'trade_fails', locked: 'trade_locked', hash: 'withdraw_password_hash', max: PASSWORD_MAX_ATTEMPTS },
} as const;

type CountedResult =
  | { outcome: 'ok' }
  | { outcome: 'wrong'; left: number }
  /** locked now by this attempt (`fresh`), or found locked / out of attempts */
  | { outcome: 'locked'; fresh: boolean }
  | { outcome: 'unset' };

class Refused extends Error {
  constructor(public readonly result: CountedResult) {
    super('refused');
  }
}

/** What counting needs of the server (not the whole Deps, so this stays out of the app's import graph). */
interface CountDeps {
  db: DB;
  config: Config;
  clock: Clock;
}

type CounterColumns = (typeof COLUMNS)[Counter];

/**
 * Checks a counted password of `userId`. `onLock` runs in the transaction that sets the lock (freeze the
 * balance, end the sessions). `beforeStart` runs once the hash lane has a slot, before the attempt is
 * reserved: cheap refusals (sold out meanwhile) thrown there cost neither an attempt nor a hash.
 */
export async function checkCounted(
  deps: CountDeps,
  opts: {
    userId: number;
    counter: Counter;
    password: string;
    lane: HashLane;
    onLock?: (w: WriteScope, now: number) => Promise<void>;
    beforeStart?: () => Promise<void> | void;
    /** Whose hash work this is (the lane caps jobs per owner): the user, or the address of a login. */
    owner?: string;
  },
): Promise<CountedResult> {
  const { db, config } = deps;
  const col = COLUMNS[opts.counter];
  let attempt = { reserved: 0, stored: '' };
  let result: { ok: boolean; upgraded: string | null };
  try {
    const reserve = async () => {
      attempt = await reserveAttempt(db, col, opts.userId);
    };
    result = await checkIn(config, opts.lane, opts.password, () => attempt.stored, { precheck: opts.beforeStart, reserve, owner: opts.owner ?? `user:${opts.userId}` });
  } catch (err) {
    if (err instanceof Refused) return err.result;
    throw err;
  }
  if (result.ok) {
    await clearAttempts(db, col, opts.userId, result.upgraded, attempt.stored);
    return { outcome: 'ok' };
  }
  if (attempt.reserved < col.max) return { outcome: 'wrong', left: col.max - attempt.reserved };
  return lockAfterLastAttempt(deps, col, opts.userId, opts.onLock);
}

/** Reserves an attempt while the account is unlocked, has the password set and attempts left: the count
 *  it reached and the stored hash; else refuses ('unset' or 'locked'). */
async function reserveAttempt(db: DB, col: CounterColumns, userId: number): Promise<{ reserved: number; stored: string }> {
  const row = (
    await sql<{ fails: number; hash: string | null }>`
      update users set ${sql.ref(col.fails)} = ${sql.ref(col.fails)} + 1
      where id = ${userId} and ${sql.ref(col.locked)} = 0 and ${sql.ref(col.fails)} < ${col.max}
        and ${sql.ref(col.hash)} is not null
      returning ${sql.ref(col.fails)} as fails, ${sql.ref(col.hash)} as hash`.execute(db)
  ).rows[0];
  if (!row) {
    const now = await db.selectFrom('users').select([col.hash, col.locked]).where('id', '=', userId).executeTakeFirst();
    if (now && (now as Record<string, unknown>)[col.hash] === null) throw new Refused({ outcome: 'unset' });
    throw new Refused({ outcome: 'locked', fresh: false });
  }
  return { reserved: Number(row.fails), stored: row.hash ?? '' };
}

/** A right password: the count cleared; an scrypt hash (or other argon2 parameters) replaced by `upgraded`,
 *  unless the password changed meanwhile. */
async function clearAttempts(db: DB, col: CounterColumns, userId: number, upgraded: string | null, stored: string): Promise<void> {
  await sql`update users set ${sql.ref(col.fails)} = 0 where id = ${userId}`.execute(db);
  if (upgraded) {
    await sql`update users set ${sql.ref(col.hash)} = ${upgraded} where id = ${userId} and ${sql.ref(col.hash)} = ${stored}`.execute(db);
  }
}

/** The wrong guess that used the last attempt: locks the account (one request "locks", the others see it). */
async function lockAfterLastAttempt(deps: CountDeps, col: CounterColumns, userId: number, onLock?: (w: WriteScope, now: number) => Promise<void>): Promise<CountedResult> {
  const { db, clock } = deps;
  const now = clock.now();
  // Not the request's effect (no idempotency record): the lock stands even when the request is refused.
  const fresh = await writeTx(db, async (tx, w) => {
    const locked = (
      await sql<{ id: number }>`
        update users set ${sql.ref(col.locked)} = 1, updated_at = ${now}
        where id = ${userId} and ${sql.ref(col.locked)} = 0 and ${sql.ref(col.fails)} >= ${col.max}
        returning id`.execute(tx)
    ).rows[0];
    if (!locked) return false;
    await onLock?.(w, now);
    return true;
  });
  // The count was cleared by a right password meanwhile: this guess was simply wrong.
  if (!fresh) {
    const row = await db.selectFrom('users').select([col.locked]).where('id', '=', userId).executeTakeFirst();
    if (!row || !(row as Record<string, unknown>)[col.locked]) return { outcome: 'wrong', left: 1 };
  }
  return { outcome: 'locked', fresh };
}
