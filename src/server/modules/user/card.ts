import type { Selectable } from 'kysely';
import type { Deps } from '../../env';
import type { DB } from '../../db/connection';
import { writeTx, type EffectRecord, type Tx } from '../../db/tx';
import type { BankAccountsTable } from '../../db/schema';
import { AppError } from '../../lib/http';
import { isoSgt } from '../../lib/clock';
import { publish } from '../../live/events';
import { paynowType, sameName, type BankCard } from '../../../shared/schemas/wallet';
import { payerOf, type User } from '../session';
import { verifyTradePassword } from './trade-password';

// The payout account (docs/product.md#withdrawals): a bank account and/or a PayNow number,
// whose holder name must equal the registered name. Checked when binding and again on every withdrawal,
// because the registered name can change after binding.

export type PayoutAccount = Selectable<BankAccountsTable>;

type Holder = Pick<User, 'type' | 'first_name' | 'last_name' | 'company' | 'uen'>;

/** The names a holder may carry: a person's "first last"; an organisation's company name only. The names on
 *  an organisation's account are whatever a member with 'manage' typed into its profile, so a payout checked
 *  against them would go wherever an admin names themself (docs/decisions/0027-holder-names.md). */
export function registeredNames(user: Holder): string[] {
  if (user.type === 'corporate') return user.company.trim() ? [user.company] : [];
  return user.first_name.trim() && user.last_name.trim() ? [`${user.first_name} ${user.last_name}`] : [];
}

export function holderMatches(user: Holder, holder: string): boolean {
  return registeredNames(user).some((name) => sameName(name, holder));
}

/** A PayNow number the user may be paid to: a person's mobile number; an organisation's own UEN only (a
 *  mobile number is a person's, another UEN another company's). */
export function paynowMatches(user: Holder, paynow: string): boolean {
  if (paynow === '') return true;
  if (user.type === 'corporate') return paynow.toUpperCase() === user.uen.toUpperCase();
  return paynowType(paynow) === 'mobile';
}

export function maskAccountNo(accountNo: string): string {
  return accountNo.length <= 4 ? accountNo : '*'.repeat(accountNo.length - 4) + accountNo.slice(-4);
}

export async function payoutAccountOf(db: DB | Tx, userId: number): Promise<PayoutAccount | null> {
  return (await db.selectFrom('bank_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst()) ?? null;
}

export function bankCardView(row: PayoutAccount): BankCard {
  return {
    bank_name: row.bank_name,
    account_no: maskAccountNo(row.account_no),
    account_last4: row.account_no.slice(-4),
    holder_name: row.holder_name,
    paynow: row.paynow,
    paynow_type: row.paynow ? (paynowType(row.paynow) ?? '') : '',
    updated_at: isoSgt(row.updated_at),
    updated_at_ms: row.updated_at,
  };
}

interface BankCardData {
  bank_name: string;
  account_no: string;
  holder_name: string;
  paynow: string;
  password: string;
}

/** Binds or replaces the payout account. */
export async function bindPayoutAccount(deps: Deps, user: User, input: BankCardData, record?: EffectRecord): Promise<BankCard> {
  if (!paynowMatches(user, input.paynow)) throw new AppError('paynow_invalid', undefined, { field: 'paynow' });
  if (registeredNames(user).length === 0) throw new AppError('name_required');
  if (!holderMatches(user, input.holder_name)) throw new AppError('holder_mismatch', undefined, { field: 'holder_name' });
  // Where money goes is as sensitive as a withdrawal: once the payment password exists, a change needs it
  // (so a stolen session cannot rename the account and redirect payouts). Checked last, so a request that
  // fails anyway costs no attempt.
  // Acting for an organisation the password is the member's own (payerOf): needed once either exists.
  const guarded = user.withdraw_password_hash !== null || payerOf(user).withdraw_password_hash !== null;
  if (guarded) {
    if (!input.password) throw new AppError('required', undefined, { field: 'password' });
    await verifyTradePassword(deps, user, input.password, 'trade_password_incorrect');
  }
  const now = deps.clock.now();
  const holder = input.holder_name.trim().replace(/\s+/g, ' ');
  const values = { bank_name: input.bank_name, account_no: input.account_no, holder_name: holder, paynow: input.paynow, updated_at: now };
  return writeTx(deps.db, async (tx, w) => {
    // Locked meanwhile (another request's wrong password): the lock wins.
    const fresh = await tx.selectFrom('users').select(['trade_locked']).where('id', '=', user.id).executeTakeFirstOrThrow();
    if (guarded && fresh.trade_locked) throw new AppError('account_locked');
    const row = await tx
      .insertInto('bank_accounts')
      .values({ user_id: user.id, ...values, created_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, now);
    return bankCardView(row);
  }, record);
}
