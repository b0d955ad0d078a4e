// Several schemas on one PostgreSQL database (the test suite's parallel files; several Canopy databases on
// one server): a migration must not fail because another session drops its own schema meanwhile. Kysely's
// migrator reads every schema's tables to find its own; a schema dropped during that read would fail it
// with `schema "..." does not exist` (a server's start under `npm run test:pg`). PostgreSQL only.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/connection';
import { HEAD_MIGRATION, migrateToLatest } from '../../src/server/db/migrate';
import { onPostgres, TEST_DATABASE_URL, urlWithSchema } from '../helpers/database';

describe.skipIf(!onPostgres)('a schema dropped by another session meanwhile', () => {
  const admin = onPostgres ? new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 }) : null;
  const mine: string[] = [];
  afterAll(async () => {
    for (const schema of mine) await admin!.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  it('does not fail a migration, nor the introspection it runs on', async () => {
    const tag = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const schema = `${tag}_m`;
    mine.push(schema);
    await admin!.query(`create schema ${schema}`);
    const { db } = openDatabase(urlWithSchema(TEST_DATABASE_URL, schema), { poolSize: 2 });
    // Another session creates and drops schemas with tables, as the other test files do, until told to stop.
    let stop = false;
    const churn = (async () => {
      for (let i = 0; !stop && i < 5000; i++) {
        const other = `${tag}_o${i}`;
        await admin!.query(`create schema ${other}; create table ${other}.a (id serial primary key, v text); create table ${other}.b (id serial primary key)`);
        await admin!.query(`drop schema ${other} cascade`);
      }
    })();
    try {
      // Without the retry, about one read in three failed while the churn ran (10 s: 66 of 168).
      for (let i = 0; i < 30; i++) await db.introspection.getTables({ withInternalKyselyTables: true });
      await migrateToLatest(db);
      const last = await db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never, 'desc').executeTakeFirst();
      expect(last).toEqual({ name: HEAD_MIGRATION });
    } finally {
      stop = true;
      await churn;
      await db.destroy();
    }
  }, 120_000);
});
