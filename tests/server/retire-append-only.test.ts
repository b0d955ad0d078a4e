// Retirements are permanent (migration 015): the database refuses to update or delete a retirement or its
// serial ranges, on SQLite and on PostgreSQL (`npm run test:pg -- tests/server/retire-append-only.test.ts`),
// the way fund_logs is guarded; whatever is attempted, the rows stay as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server';
import { holder, retireApi } from './retire-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ HASH_MAX_WAIT_MS: '60000', HASH_JOBS_PER_CLIENT: '1000' });
});
afterAll(async () => {
  await s?.close();
});

async function rows() {
  return {
    retirements: await s.db.selectFrom('retirements').selectAll().orderBy('id').execute(),
    serials: await s.db.selectFrom('retirement_serials').selectAll().orderBy('project_id').orderBy('first_seq').execute(),
  };
}

describe('retirements are append-only', () => {
  it('refuses UPDATE and DELETE on retirements and retirement_serials and leaves the rows unchanged', async () => {
    const { u, pid } = await holder(s, 5);
    const res = await retireApi(s).retire(u, { project_id: pid, tons: 3, beneficiary: 'Lim Family' });
    expect(res.code, res.msg).toBe(0);
    const id = (res.data as { id: string }).id;
    const before = await rows();
    expect(before.retirements).toHaveLength(1);
    expect(before.serials).toHaveLength(1);

    const attempts: [string, () => Promise<unknown>][] = [
      ['update retirements', () => s.db.updateTable('retirements').set({ tons: 1, beneficiary: 'Someone else' }).where('id', '=', id).execute()],
      ['delete retirements', () => s.db.deleteFrom('retirements').where('id', '=', id).execute()],
      ['update retirement_serials', () => s.db.updateTable('retirement_serials').set({ last_seq: 1 }).where('retirement_id', '=', id).execute()],
      ['delete retirement_serials', () => s.db.deleteFrom('retirement_serials').where('retirement_id', '=', id).execute()],
      ['delete every serial (raw SQL)', () => sql`delete from retirement_serials`.execute(s.db)],
      ['delete every retirement in a transaction', () => s.db.transaction().execute(async (tx) => tx.deleteFrom('retirements').execute())],
    ];
    for (const [what, attempt] of attempts) {
      await expect(attempt(), what).rejects.toThrow(/append-only/);
    }
    expect(await rows()).toEqual(before);
  });

  it('still takes new retirements', async () => {
    const { u, pid } = await holder(s, 2);
    const res = await retireApi(s).retire(u, { project_id: pid, tons: 2 });
    expect(res.code, res.msg).toBe(0);
    expect((await rows()).retirements.length).toBeGreaterThanOrEqual(2);
  });
});
