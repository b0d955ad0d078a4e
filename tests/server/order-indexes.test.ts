// Migrations 017 and 018 (the order path): the buy's used-tons sums are answered from order_usage
// (018, which drops 017's covering index orders_used_tons), and the scheduler's final-payment and settlement
// queries still read their indexes, now partial (a purchase writes no entry into either). On SQLite and
// PostgreSQL (npm run test:pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type CompiledQuery } from 'kysely';
import { dialectOf } from '../../src/server/db/connection';
import { DAY, startTestServer, type TestServer } from '../helpers/server';
import { usedTonsQuery, orderUsageProblems } from '../../src/server/modules/order/usage';
import * as m018 from '../../src/server/db/migrations/018-order-usage';
import { pendingSaleQuery } from '../../src/server/modules/retire/service';
import { makeProject, makeUser, orderApi } from './market-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SEED_DEMO: 'false' });
});
afterAll(async () => {
  await s?.close();
});

/** The plan of a query; on PostgreSQL with sequential scans off (a near-empty table is cheaper to scan:
 *  ask whether an index can serve it at all). */
async function planOf(q: CompiledQuery): Promise<string> {
  if (dialectOf(s.db) === 'postgres') {
    return s.db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const r = await tx.executeQuery<Record<string, string>>({ ...q, sql: `explain ${q.sql}` });
      return r.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }
  const r = await s.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` });
  return r.rows.map((row) => row.detail).join('\n');
}

async function indexDefinition(name: string): Promise<string> {
  if (dialectOf(s.db) === 'postgres') {
    const r = await sql<{ def: string }>`select indexdef as def from pg_indexes where indexname = ${name} and schemaname = current_schema()`.execute(s.db);
    return r.rows[0]?.def ?? '';
  }
  const r = await sql<{ def: string }>`select sql as def from sqlite_master where type = 'index' and name = ${name}`.execute(s.db);
  return r.rows[0]?.def ?? '';
}

describe('migrations 017 and 018', () => {
  it('are applied: the used-tons index is gone with the sum it served (018), as is the one before it', async () => {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(s.db);
    expect(applied.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['017-order-indexes', '018-order-usage']));
    expect(await indexDefinition('orders_user_project')).toBe('');
    expect(await indexDefinition('orders_used_tons')).toBe('');
  });

  it("answers a buyer's used tons of a project from order_usage's primary key", async () => {
    const plan = await planOf(usedTonsQuery(s.db, 1, 1, 0).compile());
    expect(plan).toContain('order_usage');
    expect(plan).toMatch(dialectOf(s.db) === 'postgres' ? /order_usage_pkey/ : /USING (COVERING )?INDEX sqlite_autoindex_order_usage/);
  });

  it("reads a user's sales pending settlement (a retirement's check) from orders_selling, which holds only those", async () => {
    expect(await indexDefinition('orders_selling')).toMatch(/user_id.*project_id/);
    const plan = await planOf(pendingSaleQuery(s.db, 1, 1).compile());
    expect(plan).toContain('orders_selling');
  });

  it('018 fills order_usage from the orders: undone and done again, the same rows', async () => {
    const api = orderApi(s);
    const pid = await makeProject(s, { total_tons: 100 });
    const a = await makeUser(s, { cents: 500_000 });
    const b = await makeUser(s, { cents: 500_000 });
    const first = await api.buy(a, pid, 3);
    expect(first.code, first.msg).toBe(0);
    expect((await api.buy(a, pid, 1)).code).toBe(0);
    expect((await api.buy(b, pid, 2)).code).toBe(0);
    s.clock.advance(32 * DAY); // another month (and past the sessions above: a new buyer)
    const c = await makeUser(s, { cents: 500_000 });
    const presale = await makeProject(s, { status: 'presale', price: 1200, presale_price: 1000, selling_time: s.clock.now() + 5 * DAY, end_time: s.clock.now() + 90 * DAY });
    expect((await api.buy(c, pid, 4)).code).toBe(0);
    expect((await api.book(c, presale, 5)).code).toBe(0);
    const rows = () => s.db.selectFrom('order_usage').selectAll().orderBy('user_id').orderBy('project_id').orderBy('month_start').execute();
    const before = await rows();
    expect(before.map((r) => [r.user_id, r.project_id, Number(r.tons)])).toEqual([
      [a.id, pid, 4],
      [b.id, pid, 2],
      [c.id, pid, 4],
      [c.id, presale, 5],
    ]);
    expect(await orderUsageProblems(s.db)).toEqual([]);
    await m018.down(s.db as never);
    await m018.up(s.db as never);
    expect(await rows()).toEqual(before);
    expect(await orderUsageProblems(s.db)).toEqual([]);
  });

  it('keeps the final-payment and settlement indexes partial, and the scheduler queries on them', async () => {
    expect(await indexDefinition('orders_due_deadline')).toMatch(/where.*final_deadline.*is not null/i);
    expect(await indexDefinition('orders_due_settle')).toMatch(/where.*settle_at.*is not null/i);
    const now = Date.now();
    // The shapes of scheduler.ts's due-orders queries.
    const deadlines = s.db.selectFrom('orders').select(['id', 'final_deadline']).where('status', '=', 'pending_final_payment').where('final_deadline', '<=', now).orderBy('final_deadline').orderBy('id').limit(100).compile();
    const sales = s.db.selectFrom('orders').select(['id', 'settle_at']).where('status', '=', 'in_progress').where('side', '=', 'sell').where('settle_at', '<=', now).orderBy('settle_at').orderBy('id').limit(100).compile();
    expect(await planOf(deadlines)).toContain('orders_due_deadline');
    expect(await planOf(sales)).toContain('orders_due_settle');
  });
});
