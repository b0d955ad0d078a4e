// One key for the fingerprints of retried writes on every instance of a database
// (docs/decisions/0025-shared-secret.md): without SECRET_KEY the first instance to start keeps a key in the
// database and the others read it, so a retry on another instance replays the first answer. With
// SECRET_KEY, an instance whose key differs from the one the database recorded refuses to start.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerSecret } from '../../src/server/lib/secret';
import { loadConfig } from '../../src/server/config';
import { startServer } from '../../src/server/server';
import { checkLedger } from '../../src/server/ledger/ledger';
import { databaseEnv, onPostgres } from '../helpers/database';
import { makeTmpDir, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, newKey, orderApi, walletOfUser } from './market-helpers';

describe.skipIf(!onPostgres)('two instances on one database without SECRET_KEY', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ HASH_MAX_WAIT_MS: '60000' });
    // Its own DATA_DIR (so its own secret.key file, were the key kept there), a's database.
    b = await startTestServer({ ...(await databaseEnv(a.dataDir)), HASH_MAX_WAIT_MS: '60000' });
  });
  afterAll(async () => {
    await b.running.close();
    await a.close();
  });

  it('a buy retried on the other instance replays the first answer: one order, money taken once', async () => {
    const u = await makeUser(a, { cents: 100_000 });
    const pid = await makeProject(a);
    const key = newKey();
    const first = await orderApi(a).buy(u, pid, 2, { key });
    expect(first.code).toBe(0);
    const after = await walletOfUser(a, u.id);
    const retried = await orderApi(b).buy(u, pid, 2, { key });
    expect(retried.code).toBe(0);
    expect(retried.data).toEqual(first.data);
    expect(await walletOfUser(a, u.id)).toEqual(after);
    const orders = await a.db.selectFrom('orders').select('id').where('user_id', '=', u.id).execute();
    expect(orders).toHaveLength(1);
    expect((await checkLedger(a.db)).ok).toBe(true);
  }, 60_000);
});

describe('SECRET_KEY checked against the key the database recorded', () => {
  it('an instance with another SECRET_KEY refuses to start, saying why', async () => {
    const KEY_A = 'first-secret-key-0123456789abcdef-0123';
    const a = await startTestServer({ SECRET_KEY: KEY_A });
    try {
      const config = loadConfig({ ...(await databaseEnv(a.dataDir)), DATA_DIR: a.dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SECRET_KEY: 'another-secret-key-0123456789abcdef-01' });
      await expect(startServer(config)).rejects.toThrow(/SECRET_KEY is not the key the other instances/);
      // Nor may an instance without SECRET_KEY join them.
      await expect(loadServerSecret(a.db, { DATA_DIR: a.dataDir, SECRET_KEY: undefined }, 0)).rejects.toThrow(/SECRET_KEY is not set/);
    } finally {
      await a.close();
    }
  }, 60_000);
});

describe('the key kept in the database', () => {
  it('is the one an upgraded instance kept in DATA_DIR/secret.key, and every later start reads it', async () => {
    const dataDir = makeTmpDir();
    const fileKey = randomBytes(32).toString('base64url');
    fs.writeFileSync(path.join(dataDir, 'secret.key'), fileKey + '\n', { mode: 0o600 });
    const s = await startTestServer({ DATA_DIR: dataDir });
    try {
      // The table keeps other shared keys beside it (the VAPID pair, lib/vapid.ts).
      const row = await sql<{ key: string | null }>`select key from server_secret where name = 'fingerprints'`.execute(s.db);
      expect(row.rows).toEqual([{ key: fileKey }]);
      fs.rmSync(path.join(dataDir, 'secret.key'));
      expect(await loadServerSecret(s.db, { DATA_DIR: makeTmpDir(), SECRET_KEY: undefined }, 0)).toEqual(Buffer.from(fileKey, 'base64url'));
      // An instance given SECRET_KEY on this database refuses to start: the others use the kept key.
      await expect(loadServerSecret(s.db, { DATA_DIR: dataDir, SECRET_KEY: 'a-secret-key-given-later-0123456789abc' }, 0)).rejects.toThrow(/unset SECRET_KEY/);
    } finally {
      await s.close();
    }
  });
});
