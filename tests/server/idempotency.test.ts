import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server';
import { newKey, newUser, write, WALLET_ENV } from './wallet-helpers';
import { PATHS } from '../../src/shared/api';
import { ERRORS } from '../../src/shared/errors';

// The idempotency record commits in the same transaction as the write's effect, so no failure after the
// effect can make a retry repeat it, and a claim left by a crash before any effect does not block forever.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
});
afterAll(async () => {
  await s.close();
});

const topups = (userId: number) => s.db.selectFrom('topups').select('id').where('user_id', '=', userId).execute();

describe('idempotency under failures', () => {
  it('a failure after the effect committed never leads to a second effect on retry', async () => {
    const u = await newUser(s, { ready: false });
    // The last bookkeeping step (storing the answer) fails, as a busy lock or an I/O error would.
    await sql`create trigger fail_done before update on idempotency_keys when new.state = 'done' begin select raise(abort, 'simulated failure'); end`.execute(s.db);
    const key = newKey();
    const payload = { amount: 5000, method: 'bank', reference: 'R1' };
    let firstFailed = false;
    try {
      const first = await write(s, PATHS.walletTopup, payload, u, { key });
      firstFailed = first.code !== 0;
    } catch {
      firstFailed = true;
    } finally {
      await sql`drop trigger fail_done`.execute(s.db);
    }
    expect(firstFailed).toBe(true);
    expect(await topups(u.id)).toHaveLength(1);
    const retry = await write(s, PATHS.walletTopup, payload, u, { key });
    expect(retry.code).toBe(ERRORS.idempotency_in_progress.code);
    expect(await topups(u.id)).toHaveLength(1);
  });

  it('a failure inside the write rolls back both the effect and the claim, so the retry runs once', async () => {
    const u = await newUser(s, { ready: false });
    await sql`create trigger fail_commit before update on idempotency_keys when new.state = 'committed' begin select raise(abort, 'simulated failure'); end`.execute(s.db);
    const key = newKey();
    const payload = { amount: 6000, method: 'paynow', reference: 'R2' };
    try {
      await write(s, PATHS.walletTopup, payload, u, { key }).catch(() => null);
    } finally {
      await sql`drop trigger fail_commit`.execute(s.db);
    }
    expect(await topups(u.id)).toHaveLength(0);
    const retry = await write(s, PATHS.walletTopup, payload, u, { key });
    expect(retry.code).toBe(0);
    const again = await write(s, PATHS.walletTopup, payload, u, { key });
    expect(again.code).toBe(0);
    expect(again.data).toEqual(retry.data);
    expect(await topups(u.id)).toHaveLength(1);
  });

  it('a claim abandoned by a crash is taken over after its lease, and only then', async () => {
    const u = await newUser(s, { ready: false });
    const key = newKey();
    const payload = { amount: 7000, method: 'bank', reference: 'R3' };
    const first = await write(s, PATHS.walletTopup, payload, u, { key });
    expect(first.code).toBe(0);
    // Make it look like a crash left a fresh claim behind with nothing committed.
    const key2 = newKey();
    await s.db
      .insertInto('idempotency_keys')
      .values({ user_id: u.id, key: key2, endpoint: '/h5/api' + PATHS.walletTopup, request_hash: 'x', state: 'pending', response: null, created_at: s.clock.now() })
      .execute();
    const blocked = await write(s, PATHS.walletTopup, payload, u, { key: key2 });
    expect(blocked.code).toBe(ERRORS.idempotency_mismatch.code); // hash differs: a different payload under that key
    await s.db.updateTable('idempotency_keys').set({ request_hash: (await s.db.selectFrom('idempotency_keys').select('request_hash').where('key', '=', key).executeTakeFirstOrThrow()).request_hash }).where('key', '=', key2).execute();
    const stillBlocked = await write(s, PATHS.walletTopup, payload, u, { key: key2 });
    expect(stillBlocked.code).toBe(ERRORS.idempotency_in_progress.code);
    expect(await topups(u.id)).toHaveLength(1);
    s.clock.advance(121_000);
    const takenOver = await write(s, PATHS.walletTopup, payload, u, { key: key2 });
    expect(takenOver.code).toBe(0);
    expect(await topups(u.id)).toHaveLength(2);
  });
});
