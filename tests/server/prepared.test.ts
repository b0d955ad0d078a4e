// db/prepared.ts (the order path): a query built and compiled once runs the same SQL with the
// same parameters as building it anew, answers the same rows, and refuses a parameter used as text or as a
// number (which would compile a value into the SQL). On SQLite and PostgreSQL (npm run test:pg).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { prepared } from '../../src/server/db/prepared';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ SEED_DEMO: 'false' });
});
afterAll(async () => {
  await s?.close();
});

describe('prepared queries', () => {
  it('compile to the SQL and parameters the builder gives, and answer the same rows', async () => {
    const build = (db: TestServer['db'], p: { owner: number; name: string; floor: number }) =>
      db
        .selectFrom('ledger_accounts')
        .select(['owner_id', 'name', sql<number>`balance + ${p.floor}`.as('lifted')])
        .where('owner_id', '=', p.owner)
        .where('name', '=', p.name)
        .where('unit', '=', 'cents');
    const q = prepared(build);
    for (const values of [
      { owner: 0, name: 'sales', floor: 5 },
      { owner: 0, name: 'fees', floor: -7 },
      { owner: 424242, name: 'available', floor: 0 },
    ]) {
      const fresh = build(s.db, values).compile();
      const once = q.compile(s.db, values).compile();
      expect(once.sql).toBe(fresh.sql);
      expect(once.parameters).toEqual(fresh.parameters);
      expect((await q.execute(s.db, values)).rows).toEqual((await build(s.db, values).execute()));
    }
  });

  it('refuses a parameter used in JavaScript rather than passed to the query', () => {
    const asText = prepared((db, p: { name: string }) => db.selectFrom('ledger_accounts').selectAll().where('name', '=', `x${p.name}`));
    expect(() => asText.compile(s.db, { name: 'sales' })).toThrow(/parameter "name" was used as a value/);
    const asNumber = prepared((db, p: { n: number }) => db.selectFrom('ledger_accounts').selectAll().where('balance', '>', p.n + 1));
    expect(() => asNumber.compile(s.db, { n: 1 })).toThrow(/parameter "n" was used as a value/);
  });

  it('refuses a missing value instead of sending undefined', () => {
    const q = prepared((db, p: { owner: number }) => db.selectFrom('ledger_accounts').selectAll().where('owner_id', '=', p.owner));
    expect(() => q.compile(s.db, {} as { owner: number })).toThrow(/no value for "owner"/);
  });
});
