// A surrender for Singapore carbon tax keeps the verdict it was judged with (migration 032,
// docs/product.md#singapore-carbon-tax): written in the retirement's transaction, never changed or removed
// (like the retirement, migration 015), and filled by the migration for surrenders written before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { down, up } from '../../src/server/db/migrations/032-icc-surrender';
import { ICC_RULES } from '../../src/shared/icc/current-rules';
import { startTestServer, type TestServer } from '../helpers/server';
import { holder, retireApi } from './retire-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.running.scheduler.stop();
});
afterAll(async () => s?.close());

const ELIGIBLE = { host_country: 'GH', programme: 'GS', type: 'cookstove', methodology_id: 'GS-TPDDTEC', methodology_date: '2021-07-01', reduction_start: 2024, reduction_end: 2024, authorisation: 'granted', adjustment: 'granted' } as const;

const kept = () => s.db.selectFrom('retirement_icc').selectAll().orderBy('retirement_id').execute();

describe('the verdict a surrender keeps', () => {
  let surrendered = '';
  it('is written with the retirement for a surrender, and for no other retirement', async () => {
    const { u, pid } = await holder(s, 5, ELIGIBLE);
    const a = await retireApi(s).retire(u, { project_id: pid, tons: 2, icc_year: 2026 });
    expect(a.code, a.msg).toBe(0);
    const b = await retireApi(s).retire(u, { project_id: pid, tons: 1 });
    expect(b.code, b.msg).toBe(0);
    surrendered = a.data.id as string;
    expect(await kept()).toEqual([{ retirement_id: surrendered, verdict: 'eligible', reasons: '[]', rules_version: ICC_RULES.version }]);
  });

  it('is never updated or removed', async () => {
    const before = await kept();
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['update', () => s.db.updateTable('retirement_icc').set({ verdict: 'not_eligible' }).where('retirement_id', '=', surrendered).execute()],
      ['delete', () => s.db.deleteFrom('retirement_icc').where('retirement_id', '=', surrendered).execute()],
      ['delete all (raw SQL)', () => sql`delete from retirement_icc`.execute(s.db)],
    ];
    for (const [what, attempt] of attempts) await expect(attempt(), what).rejects.toThrow(/append-only/);
    expect(await kept()).toEqual(before);
  });

  it('is filled by the migration for surrenders written before it: eligible, no reasons, their recorded version', async () => {
    const before = await kept();
    await down(s.db as never);
    await up(s.db as never);
    expect(await kept()).toEqual(before);
    await expect(s.db.deleteFrom('retirement_icc').execute()).rejects.toThrow(/append-only/);
  });
});
