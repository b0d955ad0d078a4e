// The ledger's post() on both databases (on PostgreSQL the entries are ONE statement of data-modifying CTEs,
// on SQLite statement after statement, ledger.ts writeEntries): every fund log
// records the balance its own change left, an entry's logs sum to zero per unit, and a refused posting (a
// missing account, a user balance below zero) leaves nothing: no entry, no log, no balance moved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src/server/db/connection';
import { isCheck } from '../../src/server/db/errors';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTx } from '../../src/server/db/tx';
import { checkLedger, openPlatformAccounts, openUserAccounts, PLATFORM, post, postAhead, UnbalancedEntryError, walletOf } from '../../src/server/ledger/ledger';
import { databaseTarget, dropDatabase } from '../helpers/database';

const USER = 424242;
let dir: string;
let db: DB;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-ledger-post-'));
  db = openDatabase(await databaseTarget(dir)).db;
  await migrateToLatest(db);
  await writeTx(db, async (tx) => {
    await openPlatformAccounts(tx);
    await openUserAccounts(tx, USER);
  });
});

afterAll(async () => {
  await db.destroy();
  await dropDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

const counts = async () => ({
  entries: Number((await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  logs: Number((await db.selectFrom('fund_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  balances: await db.selectFrom('ledger_accounts').select(['owner_id', 'name', 'balance']).orderBy('id').execute(),
});

const logsOf = (entryId: number) =>
  db.selectFrom('fund_logs').select(['owner_id', 'account_name', 'amount', 'balance_after', 'kind', 'memo', 'ref_type', 'ref_id', 'created_at']).where('entry_id', '=', entryId).orderBy('id').execute();

it('a top-up and a three-way entry: each log holds the balance its change left, and the entry sums to zero', async () => {
  const topup = await writeTx(db, (tx) =>
    post(tx, { kind: 'topup', now: 1000, memo: 'in', postings: [{ owner: PLATFORM, account: 'bank', amount: -10_000 }, { owner: USER, account: 'available', amount: 10_000 }] }),
  );
  expect(await logsOf(topup)).toEqual([
    { owner_id: PLATFORM, account_name: 'bank', amount: -10_000, balance_after: -10_000, kind: 'topup', memo: 'in', ref_type: '', ref_id: 0, created_at: 1000 },
    { owner_id: USER, account_name: 'available', amount: 10_000, balance_after: 10_000, kind: 'topup', memo: 'in', ref_type: '', ref_id: 0, created_at: 1000 },
  ]);
  const fee = await writeTx(db, (tx) =>
    post(tx, {
      kind: 'withdraw_fee', now: 2000, ref_type: 'withdrawal', ref_id: 7,
      postings: [{ owner: USER, account: 'available', amount: -3_000 }, { owner: PLATFORM, account: 'bank', amount: 2_900 }, { owner: PLATFORM, account: 'fees', amount: 100 }],
    }),
  );
  const logs = await logsOf(fee);
  expect(logs.map((l) => [l.account_name, l.amount, l.balance_after, l.ref_type, l.ref_id])).toEqual([
    ['available', -3_000, 7_000, 'withdrawal', 7],
    ['bank', 2_900, -7_100, 'withdrawal', 7],
    ['fees', 100, 100, 'withdrawal', 7],
  ]);
  expect(logs.reduce((sum, l) => sum + l.amount, 0)).toBe(0);
  expect((await walletOf(db, USER)).available).toBe(7_000);
  expect((await checkLedger(db)).ok).toBe(true);
});

it('an entry that names one account twice: both logs, in order, with their own balances', async () => {
  const id = await writeTx(db, (tx) =>
    post(tx, {
      kind: 'adjust', now: 3000,
      postings: [{ owner: USER, account: 'available', amount: -500 }, { owner: USER, account: 'available', amount: 200 }, { owner: PLATFORM, account: 'bank', amount: 300 }],
    }),
  );
  expect((await logsOf(id)).map((l) => [l.account_name, l.amount, l.balance_after])).toEqual([
    ['available', -500, 6_500],
    ['available', 200, 6_700],
    ['bank', 300, -6_800],
  ]);
  expect((await checkLedger(db)).ok).toBe(true);
});

it('an entry whose user balance passes below zero on its way is refused as the CHECK refuses it, and leaves nothing', async () => {
  const before = await counts();
  const { available } = await walletOf(db, USER);
  const err = await writeTx(db, (tx) =>
    post(tx, {
      kind: 'adjust', now: 3500,
      postings: [{ owner: USER, account: 'available', amount: -(available + 1) }, { owner: USER, account: 'available', amount: available + 1 }, { owner: PLATFORM, account: 'bank', amount: 1 }, { owner: PLATFORM, account: 'fees', amount: -1 }],
    }),
  ).catch((e: unknown) => e);
  expect(isCheck(err, 'ledger_accounts_not_negative')).toBe(true);
  expect(await counts()).toEqual(before);
});

it('a posting to an account that does not exist is refused and leaves nothing', async () => {
  const before = await counts();
  const err = await writeTx(db, (tx) =>
    post(tx, { kind: 'topup', now: 4000, postings: [{ owner: PLATFORM, account: 'bank', amount: -100 }, { owner: USER + 1, account: 'available', amount: 100 }] }),
  ).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UnbalancedEntryError);
  expect(await counts()).toEqual(before);
});

it('a user balance below zero fails the CHECK by name and leaves nothing', async () => {
  const before = await counts();
  const err = await writeTx(db, (tx) =>
    post(tx, { kind: 'order_buy', now: 5000, postings: [{ owner: USER, account: 'available', amount: -1_000_000 }, { owner: PLATFORM, account: 'sales', amount: 1_000_000 }] }),
  ).catch((e: unknown) => e);
  expect(isCheck(err, 'ledger_accounts_not_negative')).toBe(true);
  expect(await counts()).toEqual(before);
  expect((await checkLedger(db)).ok).toBe(true);
});

// postAhead: on PostgreSQL the job does not wait for the entry (db/tx.ts WriteScope); its refusals must still
// be the job's, with the same errors, even when a statement after it meets the aborted transaction.
it('postAhead: a posting to an account that does not exist refuses the job with the same error and leaves nothing', async () => {
  const before = await counts();
  const err = await writeTx(db, async (tx, w) => {
    await postAhead(w, { kind: 'topup', now: 4000, postings: [{ owner: PLATFORM, account: 'bank', amount: -100 }, { owner: USER + 1, account: 'available', amount: 100 }] });
    await tx.selectFrom('ledger_accounts').select('id').limit(1).execute();
  }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UnbalancedEntryError);
  expect(await counts()).toEqual(before);
});

it('postAhead: a user balance below zero fails the CHECK by name, not "transaction aborted", and leaves nothing', async () => {
  const before = await counts();
  const err = await writeTx(db, async (tx, w) => {
    await postAhead(w, { kind: 'order_buy', now: 5000, postings: [{ owner: USER, account: 'available', amount: -1_000_000 }, { owner: PLATFORM, account: 'sales', amount: 1_000_000 }] });
    await tx.selectFrom('ledger_accounts').select('id').limit(1).execute();
  }).catch((e: unknown) => e);
  expect(isCheck(err, 'ledger_accounts_not_negative')).toBe(true);
  expect(await counts()).toEqual(before);
  expect((await checkLedger(db)).ok).toBe(true);
});

it('postAhead: an entry that goes through is written as post() writes it', async () => {
  await writeTx(db, (_tx, w) => postAhead(w, { kind: 'topup', now: 6000, memo: 'ahead', postings: [{ owner: PLATFORM, account: 'bank', amount: -250 }, { owner: USER, account: 'available', amount: 250 }] }));
  const entry = await db.selectFrom('fund_logs').select('entry_id').where('memo', '=', 'ahead').executeTakeFirstOrThrow();
  expect((await logsOf(entry.entry_id)).map((l) => [l.account_name, l.amount, l.balance_after])).toEqual([
    ['bank', -250, -7_050],
    ['available', 250, 6_950],
  ]);
  expect((await checkLedger(db)).ok).toBe(true);
});
