import type { Tx } from '../db/tx';
import type { DB } from '../db/connection';

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

export interface Wallet {
  available: number;
  frozen: number;
  presale: number;
  unavailable: number;
  credits: number;
}

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

export interface Posting {
  owner: number; // user id, or PLATFORM
  account: UserAccountName | PlatformAccountName;
  amount: number; // signed: + credits the account, - debits it
}

export class UnbalancedEntryError extends Error {}

/** Writes one ledger entry: balances and fund logs together. A user balance going below zero fails the
 *  CHECK constraint and the caller's transaction rolls back. Returns the entry id. */
export async function post(
  tx: Tx,
  entry: { kind: string; postings: Posting[]; ref_type?: string; ref_id?: number; memo?: string; now: number },
): Promise<number> {
  const sums = new Map<string, number>();
  for (const p of entry.postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new UnbalancedEntryError(`bad amount ${p.amount}`);
    const unit = p.owner === PLATFORM ? PLATFORM_ACCOUNTS[p.account as PlatformAccountName] : USER_ACCOUNTS[p.account as UserAccountName];
    if (!unit) throw new UnbalancedEntryError(`unknown account ${p.account}`);
    sums.set(unit, (sums.get(unit) ?? 0) + p.amount);
  }
  for (const [unit, sum] of sums) if (sum !== 0) throw new UnbalancedEntryError(`entry ${entry.kind} does not balance in ${unit}: ${sum}`);

  const { id: entryId } = await tx
    .insertInto('ledger_entries')
    .values({ kind: entry.kind, created_at: entry.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const p of entry.postings) {
    const account = await tx
      .updateTable('ledger_accounts')
      .set((eb) => ({ balance: eb('balance', '+', p.amount) }))
      .where('owner_id', '=', p.owner)
      .where('name', '=', p.account)
      .returning(['id', 'balance', 'unit'])
      .executeTakeFirst();
    if (!account) throw new UnbalancedEntryError(`no ledger account ${p.owner}/${p.account}`);
    await tx
      .insertInto('fund_logs')
      .values({
        entry_id: entryId,
        account_id: account.id,
        owner_id: p.owner,
        account_name: p.account,
        unit: account.unit,
        kind: entry.kind,
        amount: p.amount,
        balance_after: account.balance,
        ref_type: entry.ref_type ?? '',
        ref_id: entry.ref_id ?? 0,
        memo: entry.memo ?? '',
        created_at: entry.now,
      })
      .execute();
  }
  return entryId;
}

export interface LedgerProblem {
  account_id: number;
  owner_id: number;
  name: string;
  balance: number;
  sum_of_logs: number;
}

/** Recomputes every balance from its fund logs, and checks each unit's ledger sums to zero. */
export async function checkLedger(db: DB): Promise<{ ok: boolean; problems: LedgerProblem[]; totals: Record<string, number> }> {
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
  const ok = problems.length === 0 && Object.values(totals).every((t) => t === 0);
  return { ok, problems, totals };
}
