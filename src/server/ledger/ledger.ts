import { sql, type QueryResult } from 'kysely';
import type { Tx, WriteScope } from '../db/tx';
import { prepared } from '../db/prepared';
import { dialectOf, type DB } from '../db/connection';
import type { WalletBalances } from '../../shared/schemas/user';
import { receiptOf, writeReceipt } from './receipts';

// The ledger is the only code that changes balances. Every change is a fund log row written in the same
// transaction as the balance, and the rows of one entry sum to zero per unit (double entry against
// platform accounts, owner_id 0).

export const USER_ACCOUNTS = {
  available: 'cents',
  frozen: 'cents',
  presale: 'cents',
  unavailable: 'cents',
  credits: 'tons',
} as const;
export type UserAccountName = keyof typeof USER_ACCOUNTS;

export const PLATFORM_ACCOUNTS = {
  bank: 'cents', // money outside the platform: top-ups come from here, withdrawals go back to it
  fees: 'cents', // handling fees earned
  forfeits: 'cents', // booking fees forfeited on expired pre-sales
  sales: 'cents', // the platform's side of buys and sell-backs
  registry: 'tons', // credits issued to and taken back from users
} as const;
export type PlatformAccountName = keyof typeof PLATFORM_ACCOUNTS;

export const PLATFORM = 0;

/** A user's balances: the shape GET /api/user/info answers (src/shared/schemas/user.ts). */
export type Wallet = WalletBalances;

export async function openUserAccounts(tx: Tx, userId: number): Promise<void> {
  await tx
    .insertInto('ledger_accounts')
    .values(Object.entries(USER_ACCOUNTS).map(([name, unit]) => ({ owner_id: userId, name, unit, balance: 0 })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function openPlatformAccounts(db: DB | Tx): Promise<void> {
  await db
    .insertInto('ledger_accounts')
    .values(Object.entries(PLATFORM_ACCOUNTS).map(([name, unit]) => ({ owner_id: PLATFORM, name, unit, balance: 0 })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function walletOf(db: DB | Tx, userId: number): Promise<Wallet> {
  const rows = await db.selectFrom('ledger_accounts').select(['name', 'balance']).where('owner_id', '=', userId).execute();
  const wallet: Wallet = { available: 0, frozen: 0, presale: 0, unavailable: 0, credits: 0 };
  for (const row of rows) if (row.name in wallet) wallet[row.name as UserAccountName] = row.balance;
  return wallet;
}

/** The platform account of a project's retired credits (docs/product.md#retirement): tons only ever come in,
 *  from the retiring user's credits, and never leave. Its balance equals the project's retired tons. */
export type RetirementAccountName = `retired:${number}`;
export const retirementAccount = (projectId: number): RetirementAccountName => `retired:${projectId}`;
const RETIREMENT_ACCOUNT = /^retired:[1-9][0-9]*$/;

export async function openRetirementAccount(tx: Tx, projectId: number): Promise<void> {
  await tx
    .insertInto('ledger_accounts')
    .values({ owner_id: PLATFORM, name: retirementAccount(projectId), unit: 'tons', balance: 0 })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export interface Posting {
  owner: number; // user id, or PLATFORM
  account: UserAccountName | PlatformAccountName | RetirementAccountName;
  amount: number; // signed: + credits the account, - debits it
}

export class UnbalancedEntryError extends Error {}

// SQLite's statements of an entry, built once (db/prepared.ts): the order path posts an entry with every order.
const newEntry = prepared((db, p: { kind: string; now: number }) => db.insertInto('ledger_entries').values({ kind: p.kind, created_at: p.now }).returning('id'));
const moveBalance = prepared((db, p: { amount: number; owner: number; account: string }) =>
  db
    .updateTable('ledger_accounts')
    .set((eb) => ({ balance: eb('balance', '+', p.amount) }))
    .where('owner_id', '=', p.owner)
    .where('name', '=', p.account)
    .returning(['id', 'balance', 'unit']),
);
const newFundLog = prepared(
  (
    db,
    p: { entryId: number; accountId: number; owner: number; account: string; unit: 'cents' | 'tons'; kind: string; amount: number; balanceAfter: number; refType: string; refId: number; memo: string; now: number },
  ) =>
    db.insertInto('fund_logs').values({
      entry_id: p.entryId,
      account_id: p.accountId,
      owner_id: p.owner,
      account_name: p.account,
      unit: p.unit,
      kind: p.kind,
      amount: p.amount,
      balance_after: p.balanceAfter,
      ref_type: p.refType,
      ref_id: p.refId,
      memo: p.memo,
      created_at: p.now,
    }),
);

/** Writes one ledger entry: balances and fund logs together (writeEntries). A user balance going below zero
 *  fails the CHECK constraint and the caller's transaction rolls back. Returns the entry id. */
export async function post(tx: Tx, entry: Entry): Promise<number> {
  return (await writeEntries(tx, [entry]))[0]!;
}

/** post() for a caller that does not need the entry's id: on PostgreSQL, inside a write transaction, the
 *  job does not wait for the entry's round trip (sent through `w`, db/tx.ts WriteScope); its failure (a
 *  balance going below zero, an account missing) is still the job's. */
export async function postAhead(w: WriteScope, entry: Entry): Promise<void> {
  await writeEntries(w.tx, [entry], w);
}

/** Several entries (a batch of orders, db/tx.ts Batcher), as post() would write them one after the other,
 *  sent ahead as postAhead sends one. */
export async function postManyAhead(w: WriteScope, entries: readonly Entry[]): Promise<void> {
  if (entries.length > 0) await writeEntries(w.tx, entries, w);
}

/** A user balance that would pass below zero on its way through the entries (an account named by several
 *  postings, whose CHECK only sees where the balance ends). It reads as that CHECK's violation
 *  (db/errors.ts violationOf), so callers refuse it as they refuse the CHECK; a batch that meets it runs
 *  again one job at a time (db/tx.ts), where it refuses the job that overdraws. */
export class BalanceBelowZeroError extends Error {
  readonly code = '23514';
  readonly constraint = 'ledger_accounts_not_negative';
}

interface Entry {
  kind: string;
  postings: Posting[];
  ref_type?: string;
  ref_id?: number;
  memo?: string;
  now: number;
}

/** The one way entries are written, one or many, in the order given; each entry's postings in their order,
 *  each fund log with the balance its own posting left. SQLite: statement after statement (they cost no
 *  round trip), each balance checked as it moves. PostgreSQL: ONE statement for all of them (entriesInsert),
 *  sent ahead through `ahead`, the job's scope, when given (the ids are then not read: answers []). Every
 *  entry is checked first (balanced per unit, known accounts). */
async function writeEntries(tx: Tx, entries: readonly Entry[], ahead?: WriteScope): Promise<number[]> {
  for (const entry of entries) checkEntry(entry);
  if (dialectOf(tx) !== 'postgres') {
    const ids: number[] = [];
    for (const entry of entries) ids.push(await postStepByStep(tx, entry));
    return ids;
  }
  const postings = entries.flatMap((e, i) =>
    e.postings.map((p, ord) => ({ i, ord, owner: p.owner, account: p.account, amount: p.amount, kind: e.kind, ref_type: e.ref_type ?? '', ref_id: e.ref_id ?? 0, memo: e.memo ?? '', created_at: e.now })),
  );
  const accounts = new Set(postings.map((p) => `${p.owner}\n${p.account}`)).size;
  const receipts = entries.flatMap((e, i) => {
    const r = receiptOf(e);
    return r ? [{ i, ...r }] : [];
  });
  const query = entriesInsert.compile(tx, { postings: JSON.stringify(postings), receipts: JSON.stringify(receipts) });
  const written = ({ rows }: QueryResult<EntriesWritten>): number[] => {
    const r = rows[0];
    if (!r || Number(r.entries) !== entries.length || Number(r.accounts) !== accounts || Number(r.logged) !== postings.length || Number(r.receipted) !== receipts.length) {
      throw new UnbalancedEntryError(`no ledger account for a posting of ${entries.map((e) => e.kind).join(', ')}`);
    }
    if (Number(r.below_zero) > 0) throw new BalanceBelowZeroError('a user balance would go below zero within the entries');
    return r.ids.map(Number);
  };
  if (ahead) {
    await ahead.ahead(query, (result) => void written(result));
    return [];
  }
  return written(await tx.executeQuery(query.compile()));
}

interface EntriesWritten {
  entries: number;
  accounts: number;
  logged: number;
  below_zero: number;
  receipted: number;
  ids: number[];
}

/** PostgreSQL: the entries, each account's balance moved once by the sum of its postings, and every
 *  posting's fund log with the balance it left (the account's new balance less the postings after it, in
 *  the order given), in data-modifying CTEs of one statement: one round trip inside the serial write section
 *  however many entries and postings (PostgreSQL applies one update per row per statement, hence the sums).
 *  A missing account leaves its update empty, which the counts show; a user balance passing below zero on
 *  the way shows in below_zero. */
const entriesInsert = prepared((db, p: { postings: string; receipts: string }) => ({
  compile: () =>
    sql<EntriesWritten>`
    with d as (
      select * from json_to_recordset(${p.postings}::json)
        as x(i int, ord int, owner bigint, account text, amount bigint, kind text, ref_type text, ref_id bigint, memo text, created_at bigint)
    ),
    ent as (
      select s.i, nextval(pg_get_serial_sequence('ledger_entries', 'id')) as id, s.kind, s.created_at
      from (select distinct on (i) i, kind, created_at from d order by i) s
      order by s.i
    ),
    e as (insert into ledger_entries (id, kind, created_at) select id, kind, created_at from ent order by i returning id),
    s as (select owner, account, sum(amount) as total from d group by owner, account),
    a as (
      update ledger_accounts la set balance = la.balance + s.total from s
      where la.owner_id = s.owner and la.name = s.account
      returning la.id, la.owner_id, la.name, la.unit, la.balance
    ),
    f as (
      insert into fund_logs (entry_id, account_id, owner_id, account_name, unit, kind, amount, balance_after, ref_type, ref_id, memo, created_at)
      select ent.id, a.id, d.owner, d.account, a.unit, d.kind, d.amount,
        a.balance - coalesce(sum(d.amount) over (partition by a.id order by d.i, d.ord rows between 1 following and unbounded following), 0),
        d.ref_type, d.ref_id, d.memo, d.created_at
      from d join ent on ent.i = d.i join a on a.owner_id = d.owner and a.name = d.account
      order by d.i, d.ord
      returning owner_id, balance_after
    ),${receiptsCtes(p.receipts)}
    select (select count(*) from e) as entries, (select count(*) from a) as accounts, (select count(*) from f) as logged,
      (select count(*) from f where owner_id <> ${PLATFORM} and balance_after < 0) as below_zero,
      (select count(*) from rr) as receipted,
      (select coalesce(json_agg(id order by i), '[]'::json) from ent) as ids`.compile(db),
}));

/** PostgreSQL: the receipts of the entries (ledger/receipts.ts receiptOf, one per entry at most) in the
 *  entries' statement: each owner's counter moved once by the number of its receipts (an upsert touches a
 *  row once per statement), each receipt numbered from where the counter stood, in the entries' order, and
 *  the mail of each owner with an address queued in the outbox. */
function receiptsCtes(receipts: string) {
  return sql`
    rd as (
      select * from json_to_recordset(${receipts}::json)
        as x(i int, owner bigint, kind text, ref_type text, ref_id bigint, total bigint, fee bigint, tons bigint, created_at bigint)
    ),
    rn as (select rd.*, row_number() over (partition by owner order by i) as k, count(*) over (partition by owner) as c from rd),
    rc as (
      insert into receipt_counters (owner_id, last) select owner, c from rn where k = 1
      on conflict (owner_id) do update set last = receipt_counters.last + excluded.last
      returning owner_id, last
    ),
    rr as (
      insert into receipts (owner_id, number, entry_id, kind, ref_type, ref_id, total, fee, tons, created_at)
      select rn.owner, rc.last - rn.c + rn.k, ent.id, rn.kind, rn.ref_type, rn.ref_id, rn.total, rn.fee, rn.tons, rn.created_at
      from rn join rc on rc.owner_id = rn.owner join ent on ent.i = rn.i
      order by rn.i
      returning id, owner_id, created_at
    ),
    ro as (
      insert into outbox (to_email, subject, body, created_at, receipt_id)
      select u.email, '', '', rr.created_at, rr.id from rr join users u on u.id = rr.owner_id where u.email <> ''
    )`;
}

/** Checks the entry balances per unit and names known accounts (throws otherwise). */
function checkEntry(entry: Entry): void {
  const sums = new Map<string, number>();
  for (const p of entry.postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new UnbalancedEntryError(`bad amount ${p.amount}`);
    const unit =
      p.owner === PLATFORM
        ? RETIREMENT_ACCOUNT.test(p.account)
          ? 'tons'
          : Object.hasOwn(PLATFORM_ACCOUNTS, p.account)
            ? PLATFORM_ACCOUNTS[p.account as PlatformAccountName]
            : undefined
        : Object.hasOwn(USER_ACCOUNTS, p.account)
          ? USER_ACCOUNTS[p.account as UserAccountName]
          : undefined;
    if (!unit) throw new UnbalancedEntryError(`unknown account ${p.account}`);
    sums.set(unit, (sums.get(unit) ?? 0) + p.amount);
  }
  for (const [unit, sum] of sums) if (sum !== 0) throw new UnbalancedEntryError(`entry ${entry.kind} does not balance in ${unit}: ${sum}`);
}

/** SQLite: the entry, then each posting's balance change and its fund log, one statement after another. */
async function postStepByStep(tx: Tx, entry: Entry): Promise<number> {
  const entryId = (await newEntry.execute(tx, { kind: entry.kind, now: entry.now })).rows[0]!.id;
  for (const p of entry.postings) {
    const account = (await moveBalance.execute(tx, { amount: p.amount, owner: p.owner, account: p.account })).rows[0];
    if (!account) throw new UnbalancedEntryError(`no ledger account ${p.owner}/${p.account}`);
    await newFundLog.execute(tx, {
      entryId,
      accountId: account.id,
      owner: p.owner,
      account: p.account,
      unit: account.unit,
      kind: entry.kind,
      amount: p.amount,
      balanceAfter: account.balance,
      refType: entry.ref_type ?? '',
      refId: entry.ref_id ?? 0,
      memo: entry.memo ?? '',
      now: entry.now,
    });
  }
  const receipt = receiptOf(entry);
  if (receipt) await writeReceipt(tx, entryId, receipt);
  return entryId;
}

export interface LedgerProblem {
  account_id: number;
  owner_id: number;
  name: string;
  balance: number;
  sum_of_logs: number;
}

export interface LedgerReport {
  ok: boolean;
  problems: LedgerProblem[];
  totals: Record<string, number>;
  retirement_problems: string[];
  /** Projects that promised more than they hold on their registry, or whose held counter disagrees with
   *  their registry blocks (docs/product.md#registry-inventory). */
  holding_problems: string[];
}

/**
 * Recomputes every balance from its fund logs, and checks each unit's ledger sums to zero and the
 * retirements against their serials and accounts. All of it reads one snapshot (a read-only REPEATABLE READ
 * transaction on PostgreSQL, a read transaction on SQLite): separate reads could straddle a commit and
 * report a difference that never existed.
 */
export async function checkLedger(db: DB): Promise<LedgerReport> {
  if (db.isTransaction) return checkLedgerIn(db);
  const tx = db.transaction();
  return (dialectOf(db) === 'postgres' ? tx.setIsolationLevel('repeatable read').setAccessMode('read only') : tx).execute((trx) => checkLedgerIn(trx));
}

async function checkLedgerIn(db: DB): Promise<LedgerReport> {
  const rows = await db
    .selectFrom('ledger_accounts as a')
    .leftJoin('fund_logs as f', 'f.account_id', 'a.id')
    .select((eb) => ['a.id', 'a.owner_id', 'a.name', 'a.unit', 'a.balance', eb.fn.coalesce(eb.fn.sum<number>('f.amount'), eb.lit(0)).as('sum_of_logs')])
    .groupBy('a.id')
    .execute();
  const problems: LedgerProblem[] = [];
  const totals: Record<string, number> = {};
  for (const r of rows) {
    const sum = Number(r.sum_of_logs);
    totals[r.unit] = (totals[r.unit] ?? 0) + r.balance;
    if (sum !== r.balance) problems.push({ account_id: r.id, owner_id: r.owner_id, name: r.name, balance: r.balance, sum_of_logs: sum });
  }
  const retirement_problems = await checkRetirements(db);
  const holding_problems = await checkHoldings(db);
  const ok = problems.length === 0 && retirement_problems.length === 0 && holding_problems.length === 0 && Object.values(totals).every((t) => t === 0);
  return { ok, problems, totals, retirement_problems, holding_problems };
}

/** Registry holdings, per project: promised <= held, where held = the units of its registry blocks not
 *  cancelled (block_tons - cancelled_tons) and promised = the tons it sold not cancelled (total_tons -
 *  remaining_tons - cancelled_tons; modules/registry/holdings.ts says why), and its block_tons counter equals
 *  the units of its blocks. One grouped query. Returns what is wrong, in words (empty: all holds). */
export async function checkHoldings(db: DB): Promise<string[]> {
  const sums = db.selectFrom('registry_blocks').select(['project_id', sql<number>`sum(quantity)`.as('n')]).groupBy('project_id');
  const rows = await db
    .selectFrom('projects as p')
    .leftJoin(sums.as('b'), 'b.project_id', 'p.id')
    .select(['p.id', 'p.total_tons', 'p.remaining_tons', 'p.block_tons', 'p.cancelled_tons', sql<number | null>`b.n`.as('blocks')])
    .orderBy('p.id')
    .execute();
  const problems: string[] = [];
  for (const r of rows) {
    const held = Number(r.block_tons) - Number(r.cancelled_tons);
    const promised = Number(r.total_tons) - Number(r.remaining_tons) - Number(r.cancelled_tons);
    const blocks = Number(r.blocks ?? 0);
    if (promised > held) problems.push(`project #${r.id}: promised ${promised} t but holds ${held} t on its registry`);
    if (blocks !== Number(r.block_tons)) problems.push(`project #${r.id}: its registry blocks hold ${blocks} units but its counter says ${r.block_tons}`);
  }
  return problems;
}

/** Retirements: per project, the retired tons of its retirements = the serials its ranges
 *  hold = its retirement account's balance; no serial in two ranges (ranges of a project, sorted by their
 *  first serial, each start after the one before ends); each retirement's ranges hold its tons; every
 *  serial lies within the project's 1..total_tons. Returns what is wrong, in words (empty: all holds). */
export async function checkRetirements(db: DB): Promise<string[]> {
  const problems: string[] = [];
  // Inside checkLedger's transaction these share its one connection (queued) and its snapshot.
  const [retired, serials, accounts, ranges, perRetirement, projects] = await Promise.all([
    db.selectFrom('retirements').select((eb) => ['project_id', eb.fn.sum<number>('tons').as('n')]).groupBy('project_id').execute(),
    db.selectFrom('retirement_serials').select(['project_id', sql<number>`sum(last_seq - first_seq + 1)`.as('n')]).groupBy('project_id').execute(),
    db.selectFrom('ledger_accounts').select(['name', 'balance']).where('owner_id', '=', PLATFORM).where('name', 'like', 'retired:%').execute(),
    db.selectFrom('retirement_serials').select(['project_id', 'first_seq', 'last_seq', 'retirement_id']).orderBy('project_id').orderBy('first_seq').execute(),
    db
      .selectFrom('retirements as r')
      .leftJoin('retirement_serials as s', 's.retirement_id', 'r.id')
      .select(['r.id', 'r.tons', sql<number>`coalesce(sum(s.last_seq - s.first_seq + 1), 0)`.as('n')])
      .groupBy(['r.id', 'r.tons'])
      .execute(),
    db.selectFrom('projects').select(['id', 'total_tons']).execute(),
  ]);
  const ids = new Set<number>();
  const retiredOf = new Map(retired.map((r) => (ids.add(r.project_id), [r.project_id, Number(r.n)])));
  const serialsOf = new Map(serials.map((r) => (ids.add(r.project_id), [r.project_id, Number(r.n)])));
  const accountOf = new Map(
    accounts.map((a) => {
      const id = Number(a.name.slice('retired:'.length));
      ids.add(id);
      return [id, a.balance];
    }),
  );
  for (const id of [...ids].sort((a, b) => a - b)) {
    const r = retiredOf.get(id) ?? 0;
    const s = serialsOf.get(id) ?? 0;
    const a = accountOf.get(id) ?? 0;
    if (r !== s || r !== a) problems.push(`project #${id}: retired ${r} t, serials allocated ${s}, retirement account ${a}`);
  }
  const total = new Map(projects.map((p) => [p.id, p.total_tons]));
  let prev: (typeof ranges)[number] | undefined;
  for (const g of ranges) {
    const first = Number(g.first_seq);
    const last = Number(g.last_seq);
    if (prev && prev.project_id === g.project_id && first <= Number(prev.last_seq)) {
      problems.push(`project #${g.project_id}: serials ${first}-${last} (retirement ${g.retirement_id}) overlap ${prev.first_seq}-${prev.last_seq} (retirement ${prev.retirement_id})`);
    }
    const max = total.get(g.project_id) ?? 0;
    if (first < 1 || last > max) problems.push(`project #${g.project_id}: serials ${first}-${last} outside 1-${max}`);
    if (!prev || prev.project_id !== g.project_id || last > Number(prev.last_seq)) prev = g;
  }
  for (const r of perRetirement) if (Number(r.n) !== r.tons) problems.push(`retirement ${r.id}: ${r.tons} t but its serial ranges hold ${r.n}`);
  return problems;
}
