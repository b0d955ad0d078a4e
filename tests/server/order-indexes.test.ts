// Migration 017 (issue 10, the order path): the buy's used-tons sums are answered from the covering index
// orders_used_tons, and the scheduler's final-payment and settlement queries still read their indexes, now
// partial (a purchase writes no entry into either). On SQLite and PostgreSQL (npm run test:pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type CompiledQuery } from 'kysely';
import { dialectOf } from '../../src/server/db/connection';
import { startTestServer, type TestServer } from '../helpers/server';

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

describe('migration 017', () => {
  it('is applied: the used-tons index covers every column the sum reads, the old one is gone', async () => {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(s.db);
    expect(applied.rows.map((r) => r.name)).toContain('017-order-indexes');
    expect(await indexDefinition('orders_user_project')).toBe('');
    expect(await indexDefinition('orders_used_tons')).toMatch(/user_id.*project_id.*side.*status.*created_at.*kind.*tons.*final_tons/);
  });

  it("answers a user's used tons of a project from orders_used_tons alone (SQLite: a covering index)", async () => {
    const q = s.db
      .selectFrom('orders')
      .select([sql<number>`sum(case when created_at >= ${0} then tons else 0 end)`.as('m'), sql<number>`sum(case when kind = 'presale' then coalesce(final_tons, tons) else tons end)`.as('t')])
      .where('user_id', '=', 1)
      .where('project_id', '=', 1)
      .where('side', '=', 'buy')
      .where('status', '!=', 'final_payment_expired')
      .compile();
    const plan = await planOf(q);
    expect(plan).toContain('orders_used_tons');
    if (dialectOf(s.db) === 'sqlite') expect(plan).toContain('COVERING INDEX orders_used_tons');
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
