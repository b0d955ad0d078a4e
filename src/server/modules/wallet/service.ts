import { emitWebhookEvent } from '../webhook/outbox';
import type { Selectable } from 'kysely';
import { isCheck, isUnique } from '../../db/errors';
import type { Deps } from '../../env';
import type { Tx, WriteScope } from '../../db/tx';
import { writeTx, type EffectRecord } from '../../db/tx';
import type { TopupsTable, WithdrawalsTable } from '../../db/schema';
import { AppError } from '../../lib/http';
import { sgtDay } from '../../lib/clock';
import { post, walletOf, PLATFORM, type Posting } from '../../ledger/ledger';
import { publish } from '../../live/events';
import { notify as writeNotice, type NoticeText } from '../../live/notices';
import { formatSgd } from '../../../shared/money';
import type { FundLogRow, TopupRecord, WithdrawalRecord } from '../../../shared/schemas/wallet';
import { pageOf } from '../../db/paging';
import type { Paged } from '../../../shared/api';
import { verifyTradePassword } from '../user/trade-password';
import { maskAccountNo, payoutAccountOf } from '../user/card';
import type { DB } from '../../db/connection';
import { checkTopupDecision, checkTopupRequest, checkWithdrawal, checkWithdrawalDecision, WalletStateError, type WithdrawalFacts, type WithdrawalInput } from './checks';
import { payerOf, type Acting, type User } from '../session';
import { openApprovalRequest } from '../user/approval-requests';
import type { ApprovalSent } from '../../../shared/schemas/approval';
import { fundLogRow, topupRecord, withdrawalRecord } from './records';
import { generateReference } from '../../../shared/paynow';

// Top-ups and withdrawals (docs/product.md#wallet-and-ledger). Each business step reads its facts, checks them
// with the pure functions of checks.ts, then writes, in one write transaction (db/tx.ts writeTx: one writer at
// a time) holding the business row, its ledger entry and its socket events together. The operator side
// (confirm, reject, complete, refuse) takes the write scope from its caller, so the CLI and the tests run
// exactly the same code.

type TopupRow = Selectable<TopupsTable>;
type WithdrawalRow = Selectable<WithdrawalsTable>;

/** post() whose CHECK failure (a user balance would go below zero) is the catalogue's insufficient_balance. */
export async function postMoney(tx: Tx, entry: Parameters<typeof post>[1]): Promise<number> {
  try {
    return await post(tx, entry);
  } catch (err) {
    if (isCheck(err, 'ledger_accounts_not_negative')) throw new AppError('insufficient_balance');
    throw err;
  }
}

/** A money notice (live/notices.ts: the notice, its socket message and its pushes; it opens the fund
 *  logs) and the wallet screens it makes stale. */
export async function notify(w: WriteScope, userId: number, text: NoticeText, now: number): Promise<void> {
  await writeNotice(w, userId, { url: '/pages/profile/fundlogs', ...text }, now);
  await publish(w, { type: 'invalidate', tables: ['user', 'fundlogs'] }, userId, now);
}

// ---------------------------------------------------------------------------------------------------
// Top-ups

/** TOPUP_MIN_CENTS is the minimum of every top-up; so every SGT day's total of top-ups, when there are any,
 *  is at least the minimum too ("minimum daily top-up"). Each top-up has a unique reference
 *  (docs/decisions/0014-paynow.md): the client's, well-formed and unused, or one the server draws; and an
 *  expiry (TOPUP_EXPIRY_MINUTES). */
export async function requestTopup(deps: Deps, user: User, input: { amount: number; method: 'paynow' | 'bank'; reference?: string | undefined }, record?: EffectRecord): Promise<TopupRecord> {
  checkTopupRequest(input.amount, deps.config);
  const now = deps.clock.now();
  const expiresAt = now + deps.config.TOPUP_EXPIRY_MINUTES * 60_000;
  const taken = async (tx: Tx, ref: string) => (await tx.selectFrom('topups').select('id').where('ref_key', '=', ref).executeTakeFirst()) !== undefined;
  try {
    // The answer is built inside the transaction: it is stored with the Idempotency-Key as it commits.
    return await writeTx(deps.db, async (tx, w) => {
      let reference = input.reference;
      if (reference !== undefined) {
        if (await taken(tx, reference)) throw new AppError('topup_reference_taken', undefined, { field: 'reference' });
      } else {
        // ~59 random bits: a clash is all but impossible; the loop (and the unique index) make it certain.
        do reference = generateReference();
        while (await taken(tx, reference));
      }
      const created = await tx
        .insertInto('topups')
        .values({
          user_id: user.id,
          amount: input.amount,
          method: input.method,
          reference,
          ref_key: reference,
          expires_at: expiresAt,
          status: 'pending',
          sgt_date: sgtDay(now).date,
          note: '',
          created_at: now,
          updated_at: now,
          decided_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // A demo configuration credits at once, in the same transaction.
      return topupRecord(deps.config.TOPUP_AUTO_CONFIRM ? await confirmTopup(w, created.id, now) : created, deps.config);
    }, record);
  } catch (err) {
    if (isUnique(err, 'topups_ref_key', 'topups.ref_key')) throw new AppError('topup_reference_taken', undefined, { field: 'reference' });
    throw err;
  }
}

/** The top-up an operator decides on, checked (checks.ts checkTopupDecision). */
async function pendingTopup(tx: Tx, id: number): Promise<TopupRow> {
  return checkTopupDecision(await tx.selectFrom('topups').selectAll().where('id', '=', id).executeTakeFirst(), id);
}

async function decideTopup(tx: Tx, row: TopupRow, status: 'credited' | 'rejected', note: string, now: number): Promise<TopupRow> {
  const updated = await tx
    .updateTable('topups')
    .set({ status, note, decided_at: now, updated_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new WalletStateError(`top-up #${row.id} is no longer pending; nothing changed`);
  return updated;
}

/** Operator (or auto-confirm): the money arrived; bank -> the user's available balance. */
export async function confirmTopup(w: WriteScope, id: number, now: number): Promise<TopupRow> {
  const tx = w.tx;
  const row = await pendingTopup(tx, id);
  const credited = await decideTopup(tx, row, 'credited', '', now);
  await postMoney(tx, {
    kind: 'topup',
    ref_type: 'topup',
    ref_id: row.id,
    memo: `Top-up #${row.id} by ${row.method === 'paynow' ? 'PayNow' : 'bank transfer'} (ref ${row.reference})`,
    now,
    postings: [
      { owner: PLATFORM, account: 'bank', amount: -row.amount },
      { owner: row.user_id, account: 'available', amount: row.amount },
    ],
  });
  const amount = formatSgd(row.amount);
  await notify(
    w,
    row.user_id,
    {
      title: 'Top-up credited',
      title_cn: '充值已到账',
      body: `Your top-up #${row.id} of ${amount} (reference ${row.reference}) is now in your available balance.`,
      body_cn: `您的充值 #${row.id}（参考号 ${row.reference}）${amount} 已计入可用余额。`,
    },
    now,
  );
  await emitWebhookEvent(w, { owner: row.user_id, mode: 'live', type: 'topup.credited', data: topupEventData(credited) }, now);
  return credited;
}

/** Operator: the money did not arrive. Nothing moves in the ledger; the user is told why. */
export async function rejectTopup(w: WriteScope, id: number, now: number, reason = ''): Promise<TopupRow> {
  const tx = w.tx;
  const row = await pendingTopup(tx, id);
  const rejected = await decideTopup(tx, row, 'rejected', reason, now);
  const amount = formatSgd(row.amount);
  await notify(
    w,
    row.user_id,
    {
      title: 'Top-up rejected',
      title_cn: '充值被拒绝',
      body: `Your top-up #${row.id} of ${amount} (reference ${row.reference}) was not credited.${reason ? ` Reason: ${reason}` : ''}`,
      body_cn: `您的充值 #${row.id}（参考号 ${row.reference}）${amount} 未能入账。${reason ? `原因：${reason}` : ''}`,
    },
    now,
  );
  return rejected;
}

// ---------------------------------------------------------------------------------------------------
// Withdrawals

async function withdrawalToday(db: DB | Tx, userId: number, date: string): Promise<boolean> {
  const row = await db.selectFrom('withdrawals').select('id').where('user_id', '=', userId).where('sgt_date', '=', date).where('status', '<>', 'refused').executeTakeFirst();
  return row !== undefined;
}

/** What a withdrawal request is checked against (checks.ts checkWithdrawal), as the database holds it now. */
async function withdrawalFacts(db: DB | Tx, userId: number, now: number): Promise<WithdrawalFacts> {
  const [account, withdrawnToday, wallet] = await Promise.all([payoutAccountOf(db, userId), withdrawalToday(db, userId, sgtDay(now).date), walletOf(db, userId)]);
  return { account, withdrawnToday, available: wallet.available };
}

/** The account as a withdrawal checks it: acting for an organisation, the payment password that must be set
 *  is the member's own (payerOf), the rest (standing, payout holder) the organisation's. */
function withPayerPassword(account: User, payer: User): User {
  return payer === account ? account : { ...account, withdraw_password_hash: payer.withdraw_password_hash };
}

/**
 * A withdrawal application: its facts checked before the password (checks.ts checkWithdrawal), so a request
 * that would be refused anyway never costs a password attempt; the password; then one transaction reads the
 * facts again, checks them again and moves amount + fee from available to frozen with the withdrawal row.
 */
export async function requestWithdrawal(deps: Deps, user: User, input: WithdrawalInput, record?: EffectRecord): Promise<WithdrawalRecord> {
  await checkThenPassword(deps, user, input);
  return asWithdrawalRefusal(() => writeTx(deps.db, (_tx, w) => commitWithdrawal(deps, w, user.id, input, payerOf(user), deps.clock.now()), record));
}

async function checkThenPassword(deps: Deps, user: User, input: WithdrawalInput): Promise<void> {
  const { db, clock, config } = deps;
  checkWithdrawal(await withdrawalFacts(db, user.id, clock.now()), withPayerPassword(user, payerOf(user)), input, config, clock.now());
  await verifyTradePassword(deps, user, input.password, 'trade_password_incorrect');
}

async function asWithdrawalRefusal<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    // The partial unique index (one non-refused withdrawal per user and SGT day) as a last guard.
    if (isUnique(err, 'withdrawals_one_per_day', 'withdrawals.user_id, withdrawals.sgt_date')) throw new AppError('withdraw_daily_limit');
    throw err;
  }
}

/** The withdrawal in the caller's write transaction: facts read again, checked, written. The member's
 *  withdrawal and the approval of a request both carry it out; `payer` is the person whose payment password
 *  it was asked with (the request's maker for an approval). */
export async function commitWithdrawal(deps: Deps, w: WriteScope, accountId: number, input: Omit<WithdrawalInput, 'password'>, payer: User, now: number): Promise<WithdrawalRecord> {
  const fresh = await w.tx.selectFrom('users').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
  const checked = checkWithdrawal(await withdrawalFacts(w.tx, accountId, now), withPayerPassword(fresh, payer.id === accountId ? fresh : payer), { ...input, password: '' }, deps.config, now);
  return writeWithdrawal(w, accountId, input.amount, checked, now);
}

/** Moves a waiting request's money between available and frozen: held when it opens, released when it is
 *  decided or expires (the approval then withdraws it through commitWithdrawal). */
export async function holdForApproval(w: WriteScope, accountId: number, requestId: number, total: number, hold: boolean, now: number): Promise<void> {
  await postMoney(w.tx, {
    kind: hold ? 'approval_hold' : 'approval_release',
    ref_type: 'approval',
    ref_id: requestId,
    memo: hold ? `Withdrawal request #${requestId}: ${formatSgd(total)} held until an approver decides` : `Withdrawal request #${requestId}: ${formatSgd(total)} released`,
    now,
    postings: [
      { owner: accountId, account: 'available', amount: hold ? -total : total },
      { owner: accountId, account: 'frozen', amount: hold ? total : -total },
    ],
  });
  await publish(w, { type: 'invalidate', tables: ['user', 'fundlogs'] }, accountId, now);
}

/** A member's withdrawal above the organisation's threshold (docs/product.md#approvals): the same checks and
 *  payment password, then a request that holds amount + fee until an approver decides. */
export async function requestWithdrawalApproval(deps: Deps, user: User, acting: Acting, input: WithdrawalInput, record?: EffectRecord): Promise<ApprovalSent> {
  await checkThenPassword(deps, user, input);
  return writeTx(deps.db, async (tx, w) => {
    const now = deps.clock.now();
    const fresh = await tx.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const { fee, method } = checkWithdrawal(await withdrawalFacts(tx, user.id, now), withPayerPassword(fresh, payerOf(user)), input, deps.config, now);
    const text = {
      title: 'Withdrawal waits for approval',
      title_cn: '提现待审批',
      body: `${acting.member.email} asks to withdraw ${formatSgd(input.amount)} (fee ${formatSgd(fee)}). An approver decides within ${deps.config.APPROVAL_TTL_DAYS} days.`,
      body_cn: `${acting.member.email} 申请提现 ${formatSgd(input.amount)}（手续费 ${formatSgd(fee)}），审批人须在 ${deps.config.APPROVAL_TTL_DAYS} 天内决定。`,
    };
    const row = { account_id: user.id, maker_id: acting.member.id, kind: 'withdraw' as const, project_id: null, tons: 0, amount: input.amount, fee, input: { method } };
    const approval = await openApprovalRequest(w, row, deps.config.APPROVAL_TTL_DAYS, text, now);
    await holdForApproval(w, user.id, approval.id, input.amount + fee, true, now);
    return { approval };
  }, record);
}

/** The withdrawal's writes, once its checks passed: its row, the money held (available to frozen, amount
 *  and fee) and the event. */
async function writeWithdrawal(w: WriteScope, userId: number, amount: number, checked: ReturnType<typeof checkWithdrawal>, now: number): Promise<WithdrawalRecord> {
  const tx = w.tx;
  const { fee, method, account } = checked;
  const created = await tx
    .insertInto('withdrawals')
    .values({
      user_id: userId,
      amount,
      fee,
      method,
      bank_name: method === 'bank' ? account.bank_name : '',
      account_no: method === 'bank' ? account.account_no : '',
      holder_name: account.holder_name,
      paynow: method === 'paynow' ? account.paynow : '',
      status: 'processing',
      sgt_date: sgtDay(now).date,
      note: '',
      created_at: now,
      updated_at: now,
      decided_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const total = amount + fee;
  await postMoney(tx, {
    kind: 'withdrawal_apply',
    ref_type: 'withdrawal',
    ref_id: created.id,
    memo: `Withdrawal #${created.id}: ${formatSgd(amount)} + fee ${formatSgd(fee)} held until paid`,
    now,
    postings: [
      { owner: userId, account: 'available', amount: -total },
      { owner: userId, account: 'frozen', amount: total },
    ],
  });
  await publish(w, { type: 'invalidate', tables: ['user', 'fundlogs'] }, userId, now);
  return withdrawalRecord(created);
}

/** The withdrawal an operator decides on, checked (checks.ts checkWithdrawalDecision). */
async function processingWithdrawal(tx: Tx, id: number): Promise<WithdrawalRow> {
  return checkWithdrawalDecision(await tx.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst(), id);
}

async function decideWithdrawal(tx: Tx, row: WithdrawalRow, status: 'completed' | 'refused', note: string, now: number): Promise<WithdrawalRow> {
  const updated = await tx
    .updateTable('withdrawals')
    .set({ status, note, decided_at: now, updated_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new WalletStateError(`withdrawal #${row.id} is no longer processing; nothing changed`);
  return updated;
}

function destination(row: WithdrawalRow): string {
  return row.method === 'paynow' ? `PayNow ${row.paynow}` : `${row.bank_name} account ${maskAccountNo(row.account_no)}`;
}

/** The topup.credited event's object. */
export function topupEventData(t: TopupRow): Record<string, unknown> {
  return { id: t.id, amount: t.received_amount ?? t.amount, method: t.method, reference: t.reference, status: t.status, credited_at: t.decided_at };
}

/** Operator: the money was paid out. Frozen -> bank for the amount, frozen -> fees for the fee. */
export async function completeWithdrawal(w: WriteScope, id: number, now: number): Promise<WithdrawalRow> {
  const tx = w.tx;
  const row = await processingWithdrawal(tx, id);
  const done = await decideWithdrawal(tx, row, 'completed', '', now);
  const postings: Posting[] = [
    { owner: row.user_id, account: 'frozen', amount: -(row.amount + row.fee) },
    { owner: PLATFORM, account: 'bank', amount: row.amount },
  ];
  if (row.fee > 0) postings.push({ owner: PLATFORM, account: 'fees', amount: row.fee });
  await postMoney(tx, { kind: 'withdrawal_complete', ref_type: 'withdrawal', ref_id: row.id, memo: `Withdrawal #${row.id} paid to ${destination(row)}`, now, postings });
  await notify(
    w,
    row.user_id,
    {
      title: 'Withdrawal completed',
      title_cn: '提现已完成',
      body: `${formatSgd(row.amount)} from withdrawal #${row.id} has been paid to ${destination(row)} (handling fee ${formatSgd(row.fee)}).`,
      body_cn: `提现 #${row.id} 的 ${formatSgd(row.amount)} 已支付至 ${destination(row)}（手续费 ${formatSgd(row.fee)}）。`,
    },
    now,
  );
  await emitWebhookEvent(w, { owner: row.user_id, mode: 'live', type: 'withdrawal.completed', data: { id: row.id, amount: row.amount, fee: row.fee, method: row.method, status: 'completed', completed_at: now } }, now);
  return done;
}

/** Operator: the payout was refused. Amount and fee go back from frozen to available. */
export async function refuseWithdrawal(w: WriteScope, id: number, now: number, reason = ''): Promise<WithdrawalRow> {
  const tx = w.tx;
  const row = await processingWithdrawal(tx, id);
  const refused = await decideWithdrawal(tx, row, 'refused', reason, now);
  const total = row.amount + row.fee;
  await postMoney(tx, {
    kind: 'withdrawal_refuse',
    ref_type: 'withdrawal',
    ref_id: row.id,
    memo: `Withdrawal #${row.id} refused${reason ? `: ${reason}` : ''}; ${formatSgd(total)} returned`,
    now,
    postings: [
      { owner: row.user_id, account: 'frozen', amount: -total },
      { owner: row.user_id, account: 'available', amount: total },
    ],
  });
  await notify(
    w,
    row.user_id,
    {
      title: 'Withdrawal refused',
      title_cn: '提现被拒绝',
      body: `Withdrawal #${row.id} of ${formatSgd(row.amount)} was refused${reason ? ` (${reason})` : ''}. ${formatSgd(total)}, the fee included, is back in your available balance.`,
      body_cn: `提现 #${row.id}（${formatSgd(row.amount)}）被拒绝${reason ? `（${reason}）` : ''}，${formatSgd(total)}（含手续费）已退回可用余额。`,
    },
    now,
  );
  return refused;
}

// ---------------------------------------------------------------------------------------------------
// The member's lists, newest first, paged as every list

export function topupsOf(deps: Deps, userId: number, q: { page: number; page_size: number; status: string }): Promise<Paged<TopupRecord>> {
  let base = deps.db.selectFrom('topups').where('user_id', '=', userId);
  if (q.status) base = base.where('status', '=', q.status as TopupRow['status']);
  return pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), (row) => topupRecord(row, deps.config));
}

export function withdrawalsOf(deps: Deps, userId: number, q: { page: number; page_size: number; status: string }): Promise<Paged<WithdrawalRecord>> {
  let base = deps.db.selectFrom('withdrawals').where('user_id', '=', userId);
  if (q.status) base = base.where('status', '=', q.status as WithdrawalRow['status']);
  return pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), withdrawalRecord);
}

/** A page of fund logs; a line of an order carries the order number and project names, since the memo is
 *  English only and two buys of the same amount would otherwise read alike (docs/product.md#wallet-and-ledger). */
export async function fundLogsOf(deps: Deps, userId: number, q: { page: number; page_size: number; kind: string }): Promise<Paged<FundLogRow>> {
  let base = deps.db.selectFrom('fund_logs').where('owner_id', '=', userId);
  if (q.kind) base = base.where('kind', '=', q.kind);
  const page = await pageOf(base, q, (b) => b.selectAll().orderBy('id', 'desc'), (row) => row);
  const orderIds = [...new Set(page.list.filter((r) => r.ref_type === 'order').map((r) => r.ref_id))];
  const orders = orderIds.length
    ? await deps.db
        .selectFrom('orders')
        .innerJoin('projects', 'projects.id', 'orders.project_id')
        .select(['orders.id', 'orders.order_no', 'orders.project_id', 'projects.name as project_name', 'projects.name_cn as project_name_cn'])
        .where('orders.id', 'in', orderIds)
        .where('orders.user_id', '=', userId)
        .execute()
    : [];
  const byId = new Map(orders.map(({ id, ...o }) => [id, o]));
  return { ...page, list: page.list.map((row) => fundLogRow(row, row.ref_type === 'order' ? byId.get(row.ref_id) : undefined)) };
}
