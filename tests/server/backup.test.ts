// docs/operations.md "Back up and restore": the commands the operations guide gives are run here,
// so the guide cannot rot. db:backup copies the live embedded database (the server running); db:restore
// (server stopped) puts a copy back, and the server starts on it with every balance equal to its fund logs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/server/ledger/ledger';
import { runOps } from '../../src/server/ops/registry';
import { makeTmpDir, runCli, startTestServer, type TestServer } from '../helpers/server';
import { fund, newUser, walletSnapshot } from './wallet-helpers';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
});

const ops = (s: TestServer, name: string, argv: string[]) => runOps({ db: s.db, clock: s.clock, dataDir: s.dataDir }, name, argv, 'test');

describe.skipIf(onPostgres)('back up and restore the embedded database', () => {
  it('backs up while the server runs, restores with the server stopped, and the server starts on the copy', async () => {
    const s = await startTestServer();
    servers.push(s);
    const kept = await newUser(s, { tag: 'kept' });
    await fund(s, kept, 12_345);
    const before = await walletSnapshot(s.db);
    const file = path.join(makeTmpDir('canopy-backup-'), 'nightly', 'canopy-backup.db');

    const backup = await ops(s, 'db:backup', [file]);
    expect(backup.ok, JSON.stringify(backup)).toBe(true);
    expect(backup).toMatchObject({ data: { file, migration: expect.stringMatching(/^\d{3}-/) } });
    expect(fs.statSync(file).size).toBeGreaterThan(0);
    // Never over an existing file.
    const again = await ops(s, 'db:backup', [file]);
    expect(again).toMatchObject({ ok: false, exit: 1, error: expect.stringContaining('exists already') });

    // After the backup: another user and more money, which the restore takes away.
    const later = await newUser(s, { tag: 'later' });
    await fund(s, later, 50_000);
    expect(await walletSnapshot(s.db)).not.toEqual(before);
    const dataDir = s.dataDir;
    await s.running.close(); // stopped, its data directory kept (close() would remove it)
    servers.pop();

    const cli = await runCli(['db:restore', file], { DATA_DIR: dataDir });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.json).toMatchObject({ ok: true, data: { file, migration: backup.ok ? (backup.data as { migration: string }).migration : '' } });

    const back = await startTestServer({ DATA_DIR: dataDir });
    servers.push(back);
    expect(await walletSnapshot(back.db)).toEqual(before);
    const report = await checkLedger(back.db);
    expect(report.ok, JSON.stringify(report.problems)).toBe(true);
    expect(await back.db.selectFrom('users').select('id').where('email', '=', later.email).executeTakeFirst()).toBeUndefined();
    // The restore is in the restored database's audit.
    const audit = await back.db.selectFrom('operator_log').selectAll().where('command', '=', 'db:restore').execute();
    expect(audit).toHaveLength(1);
  }, 120_000);

  it('refuses a file that is not a whole Canopy database, and changes nothing', async () => {
    const s = await startTestServer();
    servers.push(s);
    const u = await newUser(s, { tag: 'stay' });
    await fund(s, u, 7_000);
    const before = await walletSnapshot(s.db);
    const dir = makeTmpDir('canopy-badbackup-');
    const notDb = path.join(dir, 'notes.db');
    fs.writeFileSync(notDb, 'this is not a database, just text that is long enough to have a header '.repeat(20));
    const truncated = path.join(dir, 'truncated.db');
    const good = path.join(dir, 'good.db');
    expect((await ops(s, 'db:backup', [good])).ok).toBe(true);
    fs.writeFileSync(truncated, fs.readFileSync(good).subarray(0, 4096 + 100));
    const dataDir = s.dataDir;
    await s.running.close(); // stopped, its data directory kept (close() would remove it)
    servers.pop();

    for (const [file, says] of [
      [notDb, /not a SQLite database|cannot be opened|integrity/],
      [truncated, /integrity|malformed|not a Canopy database|cannot be opened|not a SQLite/],
      [path.join(dir, 'missing.db'), /does not exist/],
    ] as const) {
      const cli = await runCli(['db:restore', file], { DATA_DIR: dataDir });
      expect(cli.code, `${file}: ${cli.stdout}`).toBe(1);
      expect(cli.stderr).toMatch(says);
    }
    const usage = await runCli(['db:restore'], { DATA_DIR: dataDir });
    expect(usage.code).toBe(2);

    const back = await startTestServer({ DATA_DIR: dataDir });
    servers.push(back);
    expect(await walletSnapshot(back.db)).toEqual(before);
  }, 180_000);
});

describe.runIf(onPostgres)('on PostgreSQL', () => {
  it('db:backup names pg_dump instead of copying', async () => {
    const s = await startTestServer();
    servers.push(s);
    const res = await ops(s, 'db:backup', [path.join(makeTmpDir(), 'x.db')]);
    expect(res).toMatchObject({ ok: false, exit: 1, error: expect.stringContaining('pg_dump') });
  });
});
