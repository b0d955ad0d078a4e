// Scheduler ticks indexed: migration 008 gives projects a database-computed due_at and a
// partial index on it; the scheduler selects due projects by it. On SQLite and PostgreSQL (npm run test:pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dialectOf } from '../../src/server/db/connection';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import { DAY, HOUR, startTestServer, type TestServer } from '../helpers/server';
import { makeProject } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SEED_DEMO: 'false' });
});
afterAll(async () => {
  await s?.close();
});

const statusOf = async (id: number) => (await s.db.selectFrom('projects').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const dueOf = async (id: number) => (await s.db.selectFrom('projects').select('due_at').where('id', '=', id).executeTakeFirstOrThrow()).due_at;

describe('migration 008', () => {
  it('is applied, and the due-projects query reads the projects_due index', async () => {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(s.db);
    expect(applied.rows.map((r) => r.name)).toContain('008-scheduler-index');
    const q = s.db.selectFrom('projects').select('id').where('due_at', '<=', s.clock.now()).orderBy('due_at').compile();
    let plan: string;
    if (dialectOf(s.db) === 'postgres') {
      // A near-empty table is cheaper to scan: ask whether the index can serve it at all.
      plan = await s.db.transaction().execute(async (tx) => {
        await sql`set local enable_seqscan = off`.execute(tx);
        const r = await tx.executeQuery<Record<string, string>>({ ...q, sql: `explain ${q.sql}` });
        return r.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    } else {
      const r = await s.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` });
      plan = r.rows.map((row) => row.detail).join('\n');
    }
    expect(plan).toContain('projects_due');
    expect(plan).not.toMatch(/SCAN projects\b|Seq Scan/);
  });
});

describe('the scheduler selects due projects by due_at', () => {
  it('keeps due_at as the next move by time, and moves each project when due, exactly as before', async () => {
    const now = s.clock.now();
    const opens = await makeProject(s, { status: 'presale', presale_price: 800, selling_time: now + HOUR, end_time: now + 10 * DAY });
    const endsFirst = await makeProject(s, { status: 'presale', presale_price: 800, selling_time: now + 3 * DAY, end_time: now + 2 * DAY });
    const ends = await makeProject(s, { status: 'in_progress', selling_time: now - DAY, end_time: now + 2 * HOUR });
    const soldOut = await makeProject(s, { status: 'in_progress', total_tons: 10, remaining_tons: 0, end_time: now + 30 * DAY });
    const closed = await makeProject(s, { status: 'closed', selling_time: now - 90 * DAY, end_time: now - DAY });
    const review = await makeProject(s, { status: 'pending_review', selling_time: now - DAY, end_time: now - HOUR });

    expect(await dueOf(opens)).toBe(now + HOUR);
    expect(await dueOf(endsFirst)).toBe(now + 2 * DAY);
    expect(await dueOf(ends)).toBe(now + 2 * HOUR);
    expect(await dueOf(soldOut)).toBe(0);
    expect(await dueOf(closed)).toBeNull();
    expect(await dueOf(review)).toBeNull();

    // The rows due_at selects are the rows the scheduler's former three-way condition selected, at every step.
    const ids = [opens, endsFirst, ends, soldOut, closed, review];
    const agree = async (at: number) => {
      const byIndex = await s.db.selectFrom('projects').select('id').where('id', 'in', ids).where('due_at', '<=', at).orderBy('id').execute();
      const byCondition = await s.db
        .selectFrom('projects')
        .select('id')
        .where('id', 'in', ids)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', 'in', ['presale', 'in_progress']), eb('end_time', '<=', at)]),
            eb.and([eb('status', '=', 'in_progress'), eb('remaining_tons', '<=', 0)]),
            eb.and([eb('status', '=', 'presale'), eb('selling_time', '<=', at)]),
          ]),
        )
        .orderBy('id')
        .execute();
      expect(byIndex).toEqual(byCondition);
    };

    await agree(s.clock.now());
    await runDueWork(s.running.deps);
    expect(await statusOf(soldOut)).toBe('closed');
    expect(await dueOf(soldOut)).toBeNull();
    expect(await statusOf(opens)).toBe('presale');
    expect(await statusOf(ends)).toBe('in_progress');

    s.clock.advance(HOUR);
    await agree(s.clock.now());
    await runDueWork(s.running.deps);
    expect(await statusOf(opens)).toBe('in_progress');
    expect(await dueOf(opens)).toBe(now + 10 * DAY); // now it waits for its end
    expect(await statusOf(ends)).toBe('in_progress');

    s.clock.advance(HOUR);
    await agree(s.clock.now());
    await runDueWork(s.running.deps);
    expect(await statusOf(ends)).toBe('closed');
    expect(await statusOf(endsFirst)).toBe('presale');

    s.clock.advance(2 * DAY);
    await agree(s.clock.now());
    await runDueWork(s.running.deps);
    expect(await statusOf(endsFirst)).toBe('closed');
    expect(await statusOf(opens)).toBe('in_progress');
    expect(await statusOf(closed)).toBe('closed');
    expect(await statusOf(review)).toBe('pending_review');
    await agree(s.clock.now());
  });
});
