import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../../env';
import type { DB } from '../../db/connection';
import { writeTx, type EffectRecord } from '../../db/tx';
import { AppError } from '../../lib/http';
import { answerAs } from '../../lib/idempotency';
import type { Order } from '../../../shared/schemas/order';
import { hmac, serverSecret } from '../../lib/secret';
import { isCheck } from '../../db/errors';
import { PLATFORM, postAhead, walletOf } from '../../ledger/ledger';
import { findVisibleProject, projectIcc, type ProjectRow } from '../project/service';
import type { Acting, User } from '../session';
import { checkPurchase } from '../order/checks';
import { freshUser, purchaseFacts } from '../order/facts';
import { commitPurchase } from '../order/purchase';
import { checkRetirement } from '../retire/checks';
import { certificateUrl, commitRetirement } from '../retire/service';
import { approvalPath } from '../user/approval-requests';
import { sgtMonthStart } from '../order/calc';
import { sandboxOwner, type ApiKeyRow } from '../developer/keys';
import { emitWebhookEvent } from '../webhook/outbox';
import type { V1Order, V1Project, V1Retirement } from '../../../shared/schemas/v1';
import type { RetireAnswer } from '../../../shared/schemas/retire';
import type { ApiKeyMode } from '../../../shared/schemas/developer';

// The integrators' use cases (docs/product.md#integrators): the app's own money rules, reached through an
// API key. A live key runs the app's use cases on the account (the buy's checkPurchase and commitPurchase,
// the retirement's commitRetirement); the key stands for the payment password, which was typed when the
// key was made. A test key runs the same pure checks against the account's sandbox (its own ledger
// accounts under -account_id, its own order and retirement tables) and writes only there: no live money,
// supply, holdings, serials or figures move (docs/decisions/0043-integrators-api.md).

/** How long a quote holds its price. */
export const QUOTE_TTL_MS = 5 * 60_000;

/** Who acts: the key, its account and, for an organisation's account, the member who made the key. */
export interface KeyCaller {
  key: ApiKeyRow;
  account: User;
  /** The key's maker may trade for its account now (always, for a person's own key). */
  makerTrades: boolean;
}

const cursorOf = (rows: readonly { id: number | string }[], limit: number, idOf: (r: { id: number | string }) => string): string | null =>
  rows.length > limit ? idOf(rows[limit - 1]!) : null;

// ---- Projects

function toV1Project(p: ProjectRow): V1Project {
  return {
    id: p.id,
    object: 'project',
    name: p.name,
    name_cn: p.name_cn,
    type: p.type,
    status: p.status,
    country: p.country,
    registry: p.registry,
    registry_id: p.registry_id,
    standard: p.standard,
    vintage: p.vintage,
    unit_price: p.price,
    currency: 'SGD',
    remaining_tons: p.remaining_tons,
    min_tons: p.min_tons,
    max_tons: p.max_tons,
    icc_verdict: projectIcc(p).verdict,
  };
}

/** The listed projects by id, a page after `cursor`; `icc_eligible` keeps those the rules find eligible
 *  (or not) now, judged as the app's list judges them. */
export async function listProjects(db: DB, q: { limit: number; cursor?: number | undefined; status?: string | undefined; type?: string | undefined; icc_eligible?: 'true' | 'false' | undefined }) {
  const out: V1Project[] = [];
  let after = q.cursor ?? 0;
  // The eligibility filter is the rules' judgement, not a column: read in chunks until the page is full.
  for (;;) {
    let query = db.selectFrom('projects').selectAll().where('status', '!=', 'pending_review').where('id', '>', after).orderBy('id').limit(100);
    if (q.status) query = query.where('status', '=', q.status as ProjectRow['status']);
    if (q.type) query = query.where('type', '=', q.type);
    const rows = await query.execute();
    for (const p of rows) {
      const project = toV1Project(p);
      if (q.icc_eligible === undefined || (project.icc_verdict === 'eligible') === (q.icc_eligible === 'true')) out.push(project);
      if (out.length > q.limit) break;
    }
    if (out.length > q.limit || rows.length < 100) break;
    after = rows.at(-1)!.id;
  }
  return { object: 'list' as const, data: out.slice(0, q.limit), next_cursor: cursorOf(out, q.limit, (r) => String(r.id)) };
}

export async function getProject(db: DB, id: number): Promise<V1Project> {
  const p = await findVisibleProject(db, id);
  if (!p) throw new AppError('api_not_found');
  return toV1Project(p);
}

// ---- Quotes: signed, not stored

interface QuoteBody {
  a: number;
  m: ApiKeyMode;
  p: number;
  t: number;
  u: number;
  e: number;
}

export async function quote(deps: Deps, caller: KeyCaller, input: { project_id: number; tons: number }) {
  const p = await findVisibleProject(deps.db, input.project_id);
  if (!p) throw new AppError('api_not_found');
  const body: QuoteBody = { a: caller.account.id, m: caller.key.mode, p: p.id, t: input.tons, u: p.price, e: deps.clock.now() + QUOTE_TTL_MS };
  const text = Buffer.from(JSON.stringify(body)).toString('base64url');
  return {
    id: `quote_${text}.${hmac(serverSecret(deps.config), `quote\n${text}`)}`,
    object: 'quote' as const,
    mode: caller.key.mode,
    project_id: p.id,
    tons: input.tons,
    unit_price: p.price,
    total: p.price * input.tons,
    currency: 'SGD' as const,
    expires_at: body.e,
  };
}

/** The quote an order names, if it is this account's and mode's, for these tons, unexpired and signed. */
function checkQuote(deps: Deps, caller: KeyCaller, id: string, input: { project_id: number; tons: number }): QuoteBody {
  const m = /^quote_([A-Za-z0-9_-]+)\.([0-9a-f]{64})$/.exec(id);
  if (!m) throw new AppError('api_quote_expired');
  const expected = Buffer.from(hmac(serverSecret(deps.config), `quote\n${m[1]!}`));
  if (!timingSafeEqual(expected, Buffer.from(m[2]!))) throw new AppError('api_quote_expired');
  const q = JSON.parse(Buffer.from(m[1]!, 'base64url').toString()) as QuoteBody;
  if (q.a !== caller.account.id || q.m !== caller.key.mode || q.p !== input.project_id || q.t !== input.tons || q.e <= deps.clock.now()) throw new AppError('api_quote_expired');
  return q;
}

// ---- Orders

const liveOrderId = (id: number) => `ord_${id}`;
const testOrderId = (id: number) => `ord_test_${id}`;

function liveOrder(o: { id: number; status: string; project_id: number; tons: number; unit_price: number; total: number; created_at: number }): V1Order {
  return { id: liveOrderId(o.id), object: 'order', mode: 'live', status: o.status, project_id: o.project_id, tons: o.tons, unit_price: o.unit_price, total: o.total, currency: 'SGD', created_at: o.created_at };
}

function testOrder(o: { id: number; project_id: number; tons: number; unit_price: number; total: number; created_at: number }): V1Order {
  return { id: testOrderId(o.id), object: 'order', mode: 'test', status: 'completed', project_id: o.project_id, tons: o.tons, unit_price: o.unit_price, total: o.total, currency: 'SGD', created_at: o.created_at };
}

export async function placeOrder(deps: Deps, caller: KeyCaller, input: { project_id: number; tons: number; quote_id?: string | undefined }, record: EffectRecord): Promise<V1Order> {
  const quoted = input.quote_id === undefined ? null : checkQuote(deps, caller, input.quote_id, input);
  const { account } = caller;
  const now = deps.clock.now();
  if (caller.key.mode === 'live') {
    // The buy's own checks before its write (the key stands for the payment password), then the buy.
    const facts = await purchaseFacts(deps.db, account.id, input.project_id, now);
    if (quoted && facts.p.price !== quoted.u) throw new AppError('api_quote_expired');
    checkPurchase(facts, account, input.tons, now);
    const asV1 = (order: Order) => liveOrder({ ...order, created_at: order.created_at_ms });
    return asV1(await commitPurchase(deps, account, { project_id: input.project_id, tons: input.tons, password: '' }, answerAs(record, (r) => asV1(r as Order))));
  }
  return sandboxPurchase(deps, caller, input, quoted, record);
}

/** A play buy: the app's checkPurchase on the sandbox's facts (its balance, its earlier play buys of the
 *  project), then the sandbox's own writes: complete at once, the credits in the sandbox's account. */
async function sandboxPurchase(deps: Deps, caller: KeyCaller, input: { project_id: number; tons: number }, quoted: QuoteBody | null, record: EffectRecord): Promise<V1Order> {
  const accountId = caller.account.id;
  const owner = sandboxOwner(accountId);
  try {
    return await writeTx(
      deps.db,
      async (tx, w) => {
        const now = deps.clock.now();
        const p = await findVisibleProject(tx, input.project_id);
        if (!p) throw new AppError('api_not_found');
        if (quoted && p.price !== quoted.u) throw new AppError('api_quote_expired');
        const standing = await freshUser(tx, accountId);
        const used = await tx
          .selectFrom('sandbox_orders')
          .select([sql<number>`coalesce(sum(case when created_at >= ${sgtMonthStart(now)} then tons else 0 end), 0)`.as('monthly'), sql<number>`coalesce(sum(tons), 0)`.as('total')])
          .where('account_id', '=', accountId)
          .where('project_id', '=', p.id)
          .executeTakeFirstOrThrow();
        const wallet = await walletOf(tx, owner);
        const { total } = checkPurchase({ p, standing, available: wallet.available, monthlyUsed: Number(used.monthly), totalUsed: Number(used.total), nextOrderId: 0 }, caller.account, input.tons, now);
        const row = await tx
          .insertInto('sandbox_orders')
          .values({ account_id: accountId, project_id: p.id, tons: input.tons, unit_price: p.price, total, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        await postAhead(w, {
          kind: 'sandbox_buy',
          ref_type: 'sandbox_order',
          ref_id: id,
          memo: `Test order ${testOrderId(id)}: ${input.tons} t of ${p.name}`,
          now,
          postings: [
            { owner, account: 'available', amount: -total },
            { owner: PLATFORM, account: 'sandbox_sales', amount: total },
            { owner: PLATFORM, account: 'sandbox_registry', amount: -input.tons },
            { owner, account: 'credits', amount: input.tons },
          ],
        });
        const order = testOrder({ id, project_id: p.id, tons: input.tons, unit_price: p.price, total, created_at: now });
        // A play order completes at once: its webhook (test mode) is written with it.
        await emitWebhookEvent(w, { owner: accountId, mode: 'test', type: 'order.completed', data: { ...order } }, now);
        return order;
      },
      record,
    );
  } catch (err) {
    if (!(err instanceof AppError) && isCheck(err, 'ledger_accounts_not_negative')) throw new AppError('insufficient_balance');
    throw err;
  }
}

export async function getOrder(db: DB, caller: KeyCaller, id: string): Promise<V1Order> {
  const accountId = caller.account.id;
  if (caller.key.mode === 'test') {
    const m = /^ord_test_(\d{1,15})$/.exec(id);
    const row = m ? await db.selectFrom('sandbox_orders').selectAll().where('id', '=', Number(m[1])).where('account_id', '=', accountId).executeTakeFirst() : undefined;
    if (!row) throw new AppError('api_not_found');
    return testOrder(row);
  }
  const m = /^ord_(\d{1,15})$/.exec(id);
  const row = m ? await db.selectFrom('orders').selectAll().where('id', '=', Number(m[1])).where('user_id', '=', accountId).where('side', '=', 'buy').executeTakeFirst() : undefined;
  if (!row) throw new AppError('api_not_found');
  return liveOrder(row);
}

export async function listOrders(db: DB, caller: KeyCaller, q: { limit: number; cursor?: number | undefined }) {
  const accountId = caller.account.id;
  const before = q.cursor ?? Number.MAX_SAFE_INTEGER;
  if (caller.key.mode === 'test') {
    const rows = await db.selectFrom('sandbox_orders').selectAll().where('account_id', '=', accountId).where('id', '<', before).orderBy('id', 'desc').limit(q.limit + 1).execute();
    return { object: 'list' as const, data: rows.slice(0, q.limit).map(testOrder), next_cursor: cursorOf(rows, q.limit, (r) => String(r.id)) };
  }
  const rows = await db.selectFrom('orders').selectAll().where('user_id', '=', accountId).where('side', '=', 'buy').where('id', '<', before).orderBy('id', 'desc').limit(q.limit + 1).execute();
  return { object: 'list' as const, data: rows.slice(0, q.limit).map(liveOrder), next_cursor: cursorOf(rows, q.limit, (r) => String(r.id)) };
}

// ---- Retirements

interface RetirementInput {
  project_id: number;
  tons: number;
  beneficiary: string;
  reason: string;
  privacy: 'public' | 'private';
}

/** The organisation's context of a key's write: the member who made the key, as the owner's approval rules
 *  see her (a key made by an admin is no owner: an approvable retirement waits for an approver). */
async function actingOfKey(db: DB, caller: KeyCaller): Promise<Acting | null> {
  if (caller.account.type !== 'corporate') return null;
  const member = await db
    .selectFrom('organisation_members')
    .innerJoin('users', 'users.id', 'organisation_members.user_id')
    .selectAll('users')
    .select('organisation_members.role as member_role')
    .where('organisation_members.account_id', '=', caller.account.id)
    .where('organisation_members.user_id', '=', caller.key.created_by)
    .executeTakeFirst();
  if (!member) {
    // The corporate login is its organisation's owner without a membership row of its own.
    if (caller.key.created_by === caller.account.id) return { accountId: caller.account.id, member: caller.account, role: 'owner' };
    throw new AppError('api_key_invalid');
  }
  const { member_role, ...person } = member;
  return { accountId: caller.account.id, member: person, role: member_role };
}

export async function retireCredits(deps: Deps, caller: KeyCaller, input: RetirementInput, record: EffectRecord): Promise<V1Retirement> {
  if (caller.key.mode === 'test') return sandboxRetire(deps, caller, input, record);
  // A retirement an approver must decide is not the key's to make: the app's approval screens decide it.
  if ((await approvalPath(deps.db, await actingOfKey(deps.db, caller), 'retire', input.tons)) === 'request') throw new AppError('api_approval_required');
  const retireInput = { project_id: input.project_id, tons: input.tons, beneficiary: input.beneficiary, reason: input.reason, hide_beneficiary: input.privacy === 'private', icc_year: null };
  const now = deps.clock.now();
  const asV1 = (answer: RetireAnswer): V1Retirement => ({
    id: answer.id,
    object: 'retirement',
    mode: 'live',
    test: false,
    project_id: input.project_id,
    tons: input.tons,
    beneficiary: input.beneficiary,
    reason: input.reason,
    privacy: input.privacy,
    certificate_url: answer.certificate_url,
    created_at: now,
  });
  const answer = await writeTx(deps.db, (_tx, w) => commitRetirement(deps, w, caller.account.id, retireInput, now), answerAs(record, (r) => asV1(r as RetireAnswer))).catch((err: unknown) => {
    if (!(err instanceof AppError) && (isCheck(err, 'ledger_accounts_not_negative') || isCheck(err, 'credit_holdings_tons_check', 'tons >= 0'))) throw new AppError('retire_insufficient_credits', { n: 0 });
    throw err;
  });
  return asV1(answer);
}

/** A play retirement: the app's checkRetirement on the sandbox's credits of the project, then the
 *  sandbox's own row (marked TEST, no serials, no public certificate) and its ledger entry. */
async function sandboxRetire(deps: Deps, caller: KeyCaller, input: RetirementInput, record: EffectRecord): Promise<V1Retirement> {
  const accountId = caller.account.id;
  const owner = sandboxOwner(accountId);
  try {
    return await writeTx(
      deps.db,
      async (tx, w) => {
        const now = deps.clock.now();
        const p = await tx.selectFrom('projects').selectAll().where('id', '=', input.project_id).executeTakeFirst();
        const [bought, retired] = await Promise.all([
          tx.selectFrom('sandbox_orders').select(sql<number>`coalesce(sum(tons), 0)`.as('n')).where('account_id', '=', accountId).where('project_id', '=', input.project_id).executeTakeFirstOrThrow(),
          tx.selectFrom('sandbox_retirements').select(sql<number>`coalesce(sum(tons), 0)`.as('n')).where('account_id', '=', accountId).where('project_id', '=', input.project_id).executeTakeFirstOrThrow(),
        ]);
        const standing = await freshUser(tx, accountId);
        checkRetirement({ p, held: { purchase: Number(bought.n) - Number(retired.n), presale: 0 }, pendingSale: 0 }, standing, input.tons, null);
        const id = `test_${randomBytes(16).toString('base64url')}`;
        await tx
          .insertInto('sandbox_retirements')
          .values({ id, account_id: accountId, project_id: input.project_id, tons: input.tons, beneficiary: input.beneficiary, reason: input.reason, beneficiary_hidden: input.privacy === 'private' ? 1 : 0, created_at: now })
          .execute();
        await postAhead(w, {
          kind: 'sandbox_retire',
          ref_type: 'sandbox_retirement',
          ref_id: 0,
          memo: `TEST retirement ${id}: ${input.tons} t for ${input.beneficiary}`,
          now,
          postings: [
            { owner, account: 'credits', amount: -input.tons },
            { owner: PLATFORM, account: 'sandbox_retired', amount: input.tons },
          ],
        });
        const retirement = testRetirement({ id, project_id: input.project_id, tons: input.tons, beneficiary: input.beneficiary, reason: input.reason, beneficiary_hidden: input.privacy === 'private' ? 1 : 0, created_at: now });
        await emitWebhookEvent(w, { owner: accountId, mode: 'test', type: 'retirement.created', data: { ...retirement } }, now);
        return retirement;
      },
      record,
    );
  } catch (err) {
    if (!(err instanceof AppError) && isCheck(err, 'ledger_accounts_not_negative')) throw new AppError('retire_insufficient_credits', { n: 0 });
    throw err;
  }
}

function testRetirement(r: { id: string; project_id: number; tons: number; beneficiary: string; reason: string; beneficiary_hidden: number; created_at: number }): V1Retirement {
  return { id: r.id, object: 'retirement', mode: 'test', test: true, project_id: r.project_id, tons: r.tons, beneficiary: r.beneficiary, reason: r.reason, privacy: r.beneficiary_hidden ? 'private' : 'public', certificate_url: null, created_at: r.created_at };
}

export async function getRetirement(deps: Deps, caller: KeyCaller, id: string): Promise<V1Retirement> {
  const accountId = caller.account.id;
  if (caller.key.mode === 'test') {
    const row = await deps.db.selectFrom('sandbox_retirements').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!row) throw new AppError('api_not_found');
    return testRetirement(row);
  }
  const row = await deps.db.selectFrom('retirements').selectAll().where('id', '=', id).where('user_id', '=', accountId).executeTakeFirst();
  if (!row) throw new AppError('api_not_found');
  return {
    id: row.id,
    object: 'retirement',
    mode: 'live',
    test: false,
    project_id: row.project_id,
    tons: row.tons,
    beneficiary: row.beneficiary,
    reason: row.reason,
    privacy: row.beneficiary_hidden ? 'private' : 'public',
    certificate_url: certificateUrl(deps, row.id),
    created_at: row.created_at,
  };
}

export async function balanceOf(db: DB, caller: KeyCaller) {
  const w = await walletOf(db, caller.key.mode === 'test' ? sandboxOwner(caller.account.id) : caller.account.id);
  return { object: 'balance' as const, mode: caller.key.mode, available: w.available, credits: w.credits, currency: 'SGD' as const };
}
