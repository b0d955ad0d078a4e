import type { Deps } from '../../env';
import { walletOf } from '../../ledger/ledger';
import { payerOf, type User } from '../session';
import type { UserInfo } from '../../../shared/schemas/user';
import type { BankCard } from '../../../shared/schemas/wallet';
import { bankCardView, payoutAccountOf } from './card';

// The account's reads: who is signed in (with the wallet) and the bound payout account. The writes live
// beside their rules: settings.ts, card.ts, notifications.ts, membership.ts, trade-password.ts.

const GUEST: UserInfo = { mem_id: 0, type: 'visitor', email: '', first_name: '', last_name: '', realname: '', mobile: '', avatar: '', company: '', uen: '', ic_number: '', invite_code: '', grade: 0, credit_score: 'excellent', risk: false, locked: false, login_locked: false, has_withdraw_password: false, joined_at: 0, wallet: null };

/** The signed-in member's profile, grade, locks and wallet; a guest session's empty profile. */
export async function userInfo(deps: Deps, u: User | null): Promise<UserInfo> {
  if (!u) return { ...GUEST };
  return {
    mem_id: u.id,
    type: u.type,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    realname: [u.first_name, u.last_name].filter(Boolean).join(' '),
    mobile: u.mobile,
    avatar: u.avatar,
    company: u.company,
    uen: u.uen,
    ic_number: u.ic_number,
    invite_code: u.invite_code,
    grade: u.grade,
    credit_score: u.credit_score,
    risk: u.risk === 1,
    // Acting for an organisation, the payment password and its lock are the member's own.
    locked: payerOf(u).trade_locked === 1,
    login_locked: u.login_locked === 1,
    has_withdraw_password: payerOf(u).withdraw_password_hash !== null,
    joined_at: u.created_at,
    wallet: await walletOf(deps.db, u.id),
  };
}

/** The bound payout account, masked, or null. */
export async function payoutCard(deps: Deps, userId: number): Promise<BankCard | null> {
  const row = await payoutAccountOf(deps.db, userId);
  return row ? bankCardView(row) : null;
}
