import type { Deps } from '../env';
import { hashPassword } from '../lib/crypto';
import { argon2Params } from '../lib/hash-work';
import { openPlatformAccounts, openUserAccounts, post, PLATFORM } from '../ledger/ledger';
import { writeTx } from './tx';
import { seedContent } from './seed-content';

export const DEMO_ACCOUNT = {
  email: 'demo@canopy.sg',
  password: 'Canopy2026',
  withdrawPassword: 'Canopy#2026x',
  first_name: 'Alex',
  last_name: 'Tan',
  openingBalanceCents: 500_000, // S$5,000.00, entered as a confirmed top-up so the ledger explains it
} as const;

/** First run (docs/product.md#first-run): an empty database gets platform accounts, demo content and a demo account. */
export async function seedDemo(deps: Deps): Promise<void> {
  const { db, clock, config } = deps;
  await openPlatformAccounts(db);
  await seedContent(db, clock.now());
  const existing = await db.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNT.email).executeTakeFirst();
  if (existing) return;
  const [passwordHash, withdrawHash] = await Promise.all([
    hashPassword(DEMO_ACCOUNT.password, argon2Params(config)),
    hashPassword(DEMO_ACCOUNT.withdrawPassword, argon2Params(config)),
  ]);
  const now = clock.now();
  await writeTx(db, async (tx) => {
    if (await tx.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNT.email).executeTakeFirst()) return;
    const user = await tx
      .insertInto('users')
      .values({
        email: DEMO_ACCOUNT.email,
        password_hash: passwordHash,
        type: 'personal',
        company: '',
        uen: '',
        first_name: DEMO_ACCOUNT.first_name,
        last_name: DEMO_ACCOUNT.last_name,
        ic_number: 'S1234567D',
        mobile: '81234567',
        avatar: '',
        invite_code: 'CANOPY',
        invited_by: null,
        grade: 1,
        credit_score: 'excellent',
        risk: 0,
        disabled: 0,
        login_fails: 0,
        login_locked: 0,
        withdraw_password_hash: withdrawHash,
        trade_fails: 0,
        trade_locked: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await openUserAccounts(tx, user.id);
    await post(tx, {
      kind: 'topup',
      memo: 'Demo opening balance',
      now,
      postings: [
        { owner: PLATFORM, account: 'bank', amount: -DEMO_ACCOUNT.openingBalanceCents },
        { owner: user.id, account: 'available', amount: DEMO_ACCOUNT.openingBalanceCents },
      ],
    });
  });
}
