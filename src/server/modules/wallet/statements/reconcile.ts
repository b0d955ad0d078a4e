import { emitWebhookEvent } from '../../webhook/outbox';
import type { Selectable } from 'kysely';
import type { TopupFlag, TopupsTable, StatementLinesTable } from '../../../db/schema';
import type { DB } from '../../../db/connection';
import { writeTx, type Tx, type WriteScope } from '../../../db/tx';
import { sgtDay } from '../../../lib/clock';
import { PLATFORM } from '../../../ledger/ledger';
import { formatSgd } from '../../../../shared/money';
import { referencesIn } from '../../../../shared/paynow';
import { lineMatch, WalletStateError } from '../checks';
import { notify, postMoney, topupEventData } from '../service';
import type { ParsedStatement, StatementFormat, StatementLine } from './line';

// Bank statement reconciliation (docs/product.md#top-ups). Each credit line is handled in its own write
// transaction: the line is inserted first with insert-or-skip on its unique identity (a line seen before, in
// this file or an overlapping one, or by a concurrent import, changes nothing), then matched and credited
// through the ledger, with its operator audit row, all committing together. Rules
// (docs/decisions/0014-paynow.md):
// - references of the server's one shape ("CNP" + 12, TOPUP_REFERENCE_PATTERN) are read from the
//   description, upper case and spaces dropped, and looked up by equality; exactly one top-up must answer;
// - a pending top-up with the same amount, paid by its expiry day (SGT), is confirmed ('matched');
// - another amount, or a payment booked after the expiry day: the amount received is credited, the top-up
//   is flagged ('amount' / 'late'), the line 'flagged';
// - a payment under a reference whose top-up is no longer pending (credited, rejected): its own credited
//   top-up, flagged 'double' and linked to the first;
// - no reference: the line waits 'unmatched' for `ops topup:assign LINE USER`.

type TopupRow = Selectable<TopupsTable>;
type LineRow = Selectable<StatementLinesTable>;


type LineOutcome = 'matched' | 'flagged' | 'unmatched' | 'seen';

interface LineResult {
  outcome: LineOutcome;
  line_id: number | null;
  identity: string;
  amount: number;
  booked_on: string;
  topup_id: number | null;
  user_id: number | null;
  flag: TopupFlag;
}

export interface ImportSummary {
  format: StatementFormat;
  lines: number;
  debits_skipped: number;
  matched: number;
  flagged: number;
  unmatched: number;
  already_seen: number;
  /** Cents credited to users by this import (matched + flagged). */
  credited_cents: number;
  /** Cents of the new lines (credited + unmatched). */
  total_cents: number;
  results: LineResult[];
}

/** The top-up a line pays: the references of the server's shape in its text, each looked up by equality
 *  (indexed). None, or references of two different top-ups: no match (the line waits for an operator). */
async function findTopup(tx: Tx, description: string): Promise<TopupRow | undefined> {
  const refs = referencesIn(description);
  if (refs.length === 0) return undefined;
  const rows = await tx.selectFrom('topups').selectAll().where('ref_key', 'in', refs).execute();
  return rows.length === 1 ? rows[0] : undefined;
}

function creditMemo(topup: { id: number; reference: string; method: string }, lineId: number): string {
  return `Top-up #${topup.id} by ${topup.method === 'paynow' ? 'PayNow' : 'bank transfer'} (ref ${topup.reference}), bank statement line #${lineId}`;
}

async function creditLedger(tx: Tx, topup: { id: number; user_id: number; reference: string; method: string }, amount: number, lineId: number, now: number): Promise<void> {
  await postMoney(tx, {
    kind: 'topup',
    ref_type: 'topup',
    ref_id: topup.id,
    memo: creditMemo(topup, lineId),
    now,
    postings: [
      { owner: PLATFORM, account: 'bank', amount: -amount },
      { owner: topup.user_id, account: 'available', amount },
    ],
  });
}

/** The notice a user gets for a credit from a statement: plain, or saying what differed. */
function creditNotice(topup: { id: number; reference: string; amount: number }, received: number, flag: TopupFlag, firstId: number | null) {
  const got = formatSgd(received);
  const asked = formatSgd(topup.amount);
  const ref = topup.reference;
  switch (flag) {
    case 'amount':
      return {
        title: 'Top-up credited: different amount',
        title_cn: '充值已到账：金额不同',
        body: `Your top-up #${topup.id} (reference ${ref}) was for ${asked}; we received ${got} and credited ${got} to your available balance.`,
        body_cn: `您的充值 #${topup.id}（参考号 ${ref}）申请金额为 ${asked}，实际收到 ${got}，已将 ${got} 计入可用余额。`,
      };
    case 'late':
      return {
        title: 'Top-up credited after expiry',
        title_cn: '充值在过期后到账',
        body: `Your payment of ${got} for top-up #${topup.id} (reference ${ref}) arrived after the request expired. It is your money: we credited it to your available balance.`,
        body_cn: `您为充值 #${topup.id}（参考号 ${ref}）支付的 ${got} 在申请过期后到账。这笔钱属于您，已计入可用余额。`,
      };
    case 'double':
      return {
        title: 'Second payment credited',
        title_cn: '第二笔付款已到账',
        body: `We received another ${got} under reference ${ref} (of top-up #${firstId ?? ''}). It is credited to your available balance as top-up #${topup.id}.`,
        body_cn: `我们在参考号 ${ref}（充值 #${firstId ?? ''}）下又收到 ${got}，已作为充值 #${topup.id} 计入可用余额。`,
      };
    case 'manual':
      return {
        title: 'Top-up credited',
        title_cn: '充值已到账',
        body: `A payment of ${got} we received without a reference has been matched to your account and credited to your available balance (top-up #${topup.id}).`,
        body_cn: `我们收到一笔未附参考号的 ${got} 付款，已核对为您的款项并计入可用余额（充值 #${topup.id}）。`,
      };
    default:
      return {
        title: 'Top-up credited',
        title_cn: '充值已到账',
        body: `Your top-up #${topup.id} of ${got} (reference ${ref}) is now in your available balance.`,
        body_cn: `您的充值 #${topup.id}（参考号 ${ref}）${got} 已计入可用余额。`,
      };
  }
}

async function audit(tx: Tx, actor: string, args: string, target: string, before: unknown, after: unknown, now: number): Promise<void> {
  await tx
    .insertInto('operator_log')
    .values({ command: 'topup:import', args, actor, ok: 1, result: '', created_at: now, target, before: before === null ? null : JSON.stringify(before), after: JSON.stringify(after) })
    .execute();
}

/** The line, inserted once on its identity: its id, or undefined when a line with its identity is there
 *  already (in this file or an overlapping one, or from a concurrent import). */
async function insertLine(tx: Tx, format: StatementFormat, line: StatementLine, now: number): Promise<number | undefined> {
  const inserted = await tx
    .insertInto('statement_lines')
    .values({
      identity: line.identity,
      format,
      booked_on: line.booked_on,
      description: line.description.slice(0, 1000),
      amount: line.amount,
      balance: line.balance,
      bank_ref: line.bank_ref,
      status: 'unmatched',
      topup_id: null,
      user_id: null,
      note: '',
      created_at: now,
      decided_at: null,
    })
    .onConflict((oc) => oc.column('identity').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

/** A pending top-up the line pays, credited with the amount received and flagged when it differs or came
 *  late. */
async function creditPendingTopup(tx: Tx, topup: TopupRow, received: number, flag: TopupFlag, lineId: number, now: number): Promise<TopupRow> {
  const updated = await tx
    .updateTable('topups')
    .set({ status: 'credited', received_amount: received, flag, decided_at: now, updated_at: now, note: flag ? `statement line #${lineId}: ${flag}` : '' })
    .where('id', '=', topup.id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new WalletStateError(`top-up #${topup.id} is no longer pending`);
  return updated;
}

/** A second payment under a reference: its own top-up, credited at once and linked to the first. */
async function creditSecondPayment(tx: Tx, topup: TopupRow, received: number, lineId: number, now: number): Promise<TopupRow> {
  return tx
    .insertInto('topups')
    .values({
      user_id: topup.user_id,
      amount: received,
      method: topup.method,
      reference: topup.reference,
      ref_key: null,
      expires_at: null,
      flag: 'double',
      first_topup_id: topup.first_topup_id ?? topup.id,
      received_amount: received,
      status: 'credited',
      sgt_date: sgtDay(now).date,
      note: `statement line #${lineId}: second payment under the reference of top-up #${topup.id}`,
      created_at: now,
      updated_at: now,
      decided_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One statement line, in the caller's transaction: inserted once (else 'seen'), matched (checks.ts
 *  lineMatch), credited. */
async function applyLine(w: WriteScope, format: StatementFormat, line: StatementLine, now: number, actor: string, source: string): Promise<LineResult> {
  const tx = w.tx;
  const base = { identity: line.identity, amount: line.amount, booked_on: line.booked_on };
  const lineId = await insertLine(tx, format, line, now);
  if (lineId === undefined) return { ...base, outcome: 'seen', line_id: null, topup_id: null, user_id: null, flag: '' };
  const topup = line.batch ? undefined : await findTopup(tx, line.description);
  const flag = lineMatch(line, topup);
  if (!topup || flag === null) {
    await audit(tx, actor, source, `statement_line:${lineId}`, null, { status: 'unmatched', ...base, description: line.description }, now);
    return { ...base, outcome: 'unmatched', line_id: lineId, topup_id: null, user_id: null, flag: '' };
  }
  const credited = flag === 'double' ? await creditSecondPayment(tx, topup, line.amount, lineId, now) : await creditPendingTopup(tx, topup, line.amount, flag, lineId, now);
  await creditLedger(tx, credited, line.amount, lineId, now);
  const status = flag === '' ? 'matched' : 'flagged';
  await tx.updateTable('statement_lines').set({ status, topup_id: credited.id, user_id: credited.user_id, note: flag, decided_at: now }).where('id', '=', lineId).execute();
  await notify(w, credited.user_id, creditNotice(credited, line.amount, flag, credited.first_topup_id), now);
  await emitWebhookEvent(w, { owner: credited.user_id, mode: 'live', type: 'topup.credited', data: topupEventData(credited) }, now);
  await audit(tx, actor, source, `topup:${credited.id}`, topup.status === 'pending' ? topup : null, { ...credited, statement_line: lineId }, now);
  return { ...base, outcome: status, line_id: lineId, topup_id: credited.id, user_id: credited.user_id, flag };
}

/** Thrown to roll a dry run back: it carries the summary the run would have produced. */
class DryRun extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

function summarize(format: StatementFormat, statement: ParsedStatement, results: LineResult[]): ImportSummary {
  const count = (o: LineOutcome) => results.filter((r) => r.outcome === o).length;
  const sum = (rs: LineResult[]) => rs.reduce((s, r) => s + r.amount, 0);
  return {
    format,
    lines: statement.lines.length,
    debits_skipped: statement.debits,
    matched: count('matched'),
    flagged: count('flagged'),
    unmatched: count('unmatched'),
    already_seen: count('seen'),
    credited_cents: sum(results.filter((r) => r.outcome === 'matched' || r.outcome === 'flagged')),
    total_cents: sum(results.filter((r) => r.outcome !== 'seen')),
    results,
  };
}

/** Imports a parsed statement: one write transaction per line; a dry run does all of it in one
 *  transaction that is rolled back, so its summary is exactly what the import would do. */
export async function importStatement(db: DB, statement: ParsedStatement, opts: { now: () => number; actor: string; source: string; dryRun?: boolean }): Promise<ImportSummary> {
  if (opts.dryRun) {
    try {
      await writeTx(db, async (_tx, w) => {
        const results: LineResult[] = [];
        for (const line of statement.lines) results.push(await applyLine(w, statement.format, line, opts.now(), opts.actor, opts.source));
        throw new DryRun(summarize(statement.format, statement, results));
      });
    } catch (err) {
      if (err instanceof DryRun) return err.summary;
      throw err;
    }
    throw new Error('unreachable');
  }
  const results: LineResult[] = [];
  for (const line of statement.lines) results.push(await writeTx(db, (_tx, w) => applyLine(w, statement.format, line, opts.now(), opts.actor, opts.source)));
  return summarize(statement.format, statement, results);
}

/** Operator: credits an unmatched line to a user by hand, as a new credited top-up flagged 'manual'. */
export async function assignLine(w: WriteScope, lineId: number, userId: number, now: number, actor: string): Promise<{ line: LineRow; topup: TopupRow }> {
  const tx = w.tx;
  const line = await tx.selectFrom('statement_lines').selectAll().where('id', '=', lineId).executeTakeFirst();
  if (!line) throw new WalletStateError(`no statement line #${lineId}`);
  if (line.status !== 'unmatched') throw new WalletStateError(`statement line #${lineId} is already ${line.status}${line.topup_id ? ` (top-up #${line.topup_id})` : ''}; nothing changed`);
  const user = await tx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new WalletStateError(`no user #${userId}`);
  const topup = await tx
    .insertInto('topups')
    .values({
      user_id: userId,
      amount: line.amount,
      method: 'bank',
      reference: `LINE-${lineId}`,
      ref_key: null,
      expires_at: null,
      flag: 'manual',
      first_topup_id: null,
      received_amount: line.amount,
      status: 'credited',
      sgt_date: sgtDay(now).date,
      note: `statement line #${lineId} assigned by ${actor}`,
      created_at: now,
      updated_at: now,
      decided_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const updated = await tx
    .updateTable('statement_lines')
    .set({ status: 'assigned', topup_id: topup.id, user_id: userId, note: `assigned by ${actor}`, decided_at: now })
    .where('id', '=', lineId)
    .where('status', '=', 'unmatched')
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new WalletStateError(`statement line #${lineId} is no longer unmatched; nothing changed`);
  await creditLedger(tx, topup, line.amount, lineId, now);
  await notify(w, userId, creditNotice(topup, line.amount, 'manual', null), now);
  return { line: updated, topup };
}
