import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../../db/connection';
import { isCheck } from '../../db/errors';
import { writeTx, type EffectRecord, type Tx, type WriteScope } from '../../db/tx';
import type { Deps } from '../../env';
import { isoSgt } from '../../lib/clock';
import { AppError } from '../../lib/http';
import type { PublicAnswer } from '../../lib/response-cache';
import { checkLedger, openRetirementAccount, post, retirementAccount } from '../../ledger/ledger';
import { publish } from '../../live/events';
import { checkThenVerify } from '../user/trade-password';
import type { Acting, User } from '../session';
import { lessAwaiting, openApprovalRequest, tonsAwaitingApproval } from '../user/approval-requests';
import type { ApprovalSent } from '../../../shared/schemas/approval';
import { CERTIFICATE_ID, type Certificate, type RetireAnswer, type RetireInput, type SerialRange, type Transparency, type TransparencyProject } from '../../../shared/schemas/retire';
import { takeHolding } from '../order/repo';
import { freshUser } from '../order/facts';
import { iccCount } from './icc-count';
import { emitWebhookEvent } from '../webhook/outbox';
import { ICC_COLUMNS, type IccJudgement } from '../../../shared/icc/engine';
import { checkRetirement, freeSerialRanges, type RetirableProject, type RetirementFacts, type SeqRange } from './checks';
import { allocateUnits, registrySerialsOf, registryUrl } from './registry-units';
import { cancellationDueAt, dueDate, openCancellation } from './cancellation';

// Retirement of carbon credits (docs/product.md#retirement). A retirement moves whole tons of one project
// from the user's credits to the project's retirement account (a platform ledger account, retired:<project
// id>) and takes as many serials of the project: the lowest free sequences of 1..total_tons, one contiguous
// range when the free sequences allow it, else several. As with orders: cheap checks first (no password
// attempt spent on a refusal that needs none), the payment password with the counted attempts, then ONE write
// transaction (no other writer) reads the facts again, checks them again with the same pure functions
// (checks.ts) and writes holdings, ledger, serials and the retirement row together. docs/decisions/0010-retire.md.

/** Digits of a serial's sequence: fixed width, so serials sort as text and read the same everywhere. */
const SEQ_DIGITS = 9;

function serialOf(p: { registry_id: string; vintage: number }, seq: number): string {
  return `${p.registry_id}-${p.vintage}-${String(seq).padStart(SEQ_DIGITS, '0')}`;
}

/** 128 random bits as base64url (22 characters): the certificate's id and address. */
function newRetirementId(): string {
  return randomBytes(16).toString('base64url');
}

export function certificatePath(id: string): string {
  return `/certificate/${id}`;
}

export function certificateUrl(deps: Pick<Deps, 'config'>, id: string): string {
  return `${deps.config.PUBLIC_URL ?? ''}${certificatePath(id)}`;
}

const PROJECT_COLUMNS = ['id', 'name', 'name_cn', 'status', 'registry', 'registry_id', 'standard', 'methodology', 'country', 'country_cn', 'location', 'location_cn', 'total_tons', ...ICC_COLUMNS] as const;

/** The tons of a project a user sold back whose proceeds have not settled (the sell orders in progress), from
 *  the partial index orders_selling (migration 018): side and status are written out, not parameters, so
 *  both databases see that the query only wants the rows that index holds. */
export function pendingSaleQuery(db: DB | Tx, userId: number, projectId: number) {
  return db
    .selectFrom('orders')
    .select(sql<number>`coalesce(sum(tons), 0)`.as('n'))
    .where('user_id', '=', userId)
    .where('project_id', '=', projectId)
    .where('side', '=', sql.lit('sell'))
    .where('status', '=', sql.lit('in_progress'));
}

/** What a retirement is checked against (checks.ts checkRetirement): the project, the user's holdings of it
 *  and their tons of it pending sale. */
async function retirementFacts(db: DB | Tx, userId: number, projectId: number): Promise<RetirementFacts> {
  const held = { purchase: 0, presale: 0 };
  const p = await db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', '=', projectId).executeTakeFirst();
  if (!p) return { p, held, pendingSale: 0 };
  const [holdings, pending] = await Promise.all([
    db.selectFrom('credit_holdings').select(['origin', 'tons']).where('user_id', '=', userId).where('project_id', '=', p.id).execute(),
    pendingSaleQuery(db, userId, p.id).executeTakeFirstOrThrow(),
  ]);
  for (const h of holdings) held[h.origin] += h.tons;
  // Tons a waiting approval request holds are not the account's to retire again (docs/product.md#approvals).
  return { p, held: lessAwaiting(held, await tonsAwaitingApproval(db, userId, p.id)), pendingSale: Number(pending.n) };
}

/** The lowest free serials of a project: read inside the write transaction, where nobody else allocates,
 *  so what is free here is free at the commit. */
async function allocateSerials(tx: Tx, projectId: number, totalTons: number, tons: number): Promise<SeqRange[]> {
  const taken = await tx.selectFrom('retirement_serials').select(['first_seq', 'last_seq']).where('project_id', '=', projectId).orderBy('first_seq').execute();
  return freeSerialRanges(taken.map((r) => ({ first: Number(r.first_seq), last: Number(r.last_seq) })), totalTons, tons);
}

/** Retires credits: checks that need no password, the payment password, then one write transaction that
 *  reads the facts again, checks them again and writes holdings, ledger, serials and the retirement row. */
export async function retire(deps: Deps, user: User, input: RetireInput, record?: EffectRecord): Promise<RetireAnswer> {
  await checkThenVerify(deps, user, input.paypwd, 'project_password_incorrect', recheckOf(deps, user, input));
  return asRetireRefusal(() => writeTx(deps.db, (_tx, w) => commitRetirement(deps, w, user.id, input, deps.clock.now()), record));
}

const recheckOf = (deps: Deps, user: User, input: RetireInput) => async () => void checkRetirement(await retirementFacts(deps.db, user.id, input.project_id), user, input.tons, input.icc_year);

/** A database CHECK that fails at the commit is the refusal the checks give. */
async function asRetireRefusal<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isCheck(err, 'ledger_accounts_not_negative') || isCheck(err, 'credit_holdings_tons_check', 'tons >= 0')) throw new AppError('retire_insufficient_credits', { n: 0 });
    throw err;
  }
}

/** The retirement in the caller's write transaction: the facts read again (nobody else writes), checked,
 *  written. The member's retirement and the approval of a request both carry it out. */
export async function commitRetirement(deps: Deps, w: WriteScope, accountId: number, input: Omit<RetireInput, 'paypwd'>, now: number): Promise<RetireAnswer> {
  const u = await freshUser(w.tx, accountId);
  const checked = checkRetirement(await retirementFacts(w.tx, u.id, input.project_id), u, input.tons, input.icc_year);
  return writeRetirement(deps, w, u.id, input, checked, now);
}

/** A member's retirement above the organisation's threshold (docs/product.md#approvals): the same checks and
 *  payment password, then a request that holds the tons until an approver decides. */
export async function requestRetirement(deps: Deps, user: User, acting: Acting, input: RetireInput, record?: EffectRecord): Promise<ApprovalSent> {
  await checkThenVerify(deps, user, input.paypwd, 'project_password_incorrect', recheckOf(deps, user, input));
  return asRetireRefusal(() =>
    writeTx(deps.db, async (tx, w) => {
      const now = deps.clock.now();
      const u = await freshUser(tx, user.id);
      const { p } = checkRetirement(await retirementFacts(tx, u.id, input.project_id), u, input.tons, input.icc_year);
      const { paypwd: _secret, project_id, tons, ...rest } = input;
      const text = {
        title: 'Retirement waits for approval',
        title_cn: '碳信用注销待审批',
        body: `${acting.member.email} asks to retire ${tons} t of ${p.name} for ${input.beneficiary}. An approver decides within ${deps.config.APPROVAL_TTL_DAYS} days.`,
        body_cn: `${acting.member.email} 申请为 ${input.beneficiary} 注销 ${p.name_cn || p.name} ${tons} 吨，审批人须在 ${deps.config.APPROVAL_TTL_DAYS} 天内决定。`,
      };
      const row = { account_id: u.id, maker_id: acting.member.id, kind: 'retire' as const, project_id, tons, amount: 0, fee: 0, input: rest };
      return { approval: await openApprovalRequest(w, row, deps.config.APPROVAL_TTL_DAYS, text, now) };
    }, record),
  );
}

/** A surrender's verdict, its reasons and rules version, kept with it (migration 032): the pack and the cap
 *  read these, not today's rules. */
async function keepSurrenderVerdict(tx: Tx, retirementId: string, j: IccJudgement): Promise<void> {
  await tx.insertInto('retirement_icc').values({ retirement_id: retirementId, verdict: j.verdict, reasons: JSON.stringify(j.reasons), rules_version: j.rules_version }).execute();
}

/** The retirement's writes, once its checks passed: the holdings taken, the serials, the ledger entry from
 *  the user's credits to the project's retirement account, the retirement row and its events. */
async function writeRetirement(deps: Deps, w: WriteScope, userId: number, input: Omit<RetireInput, 'paypwd'>, checked: ReturnType<typeof checkRetirement>, now: number): Promise<RetireAnswer> {
  const tx = w.tx;
  const { p, fromPurchase, fromPresale } = checked;
  if (!(await takeHolding(tx, userId, p.id, 'purchase', fromPurchase, now)) || !(await takeHolding(tx, userId, p.id, 'presale', fromPresale, now))) {
    throw new AppError('retire_insufficient_credits', { n: 0 });
  }
  const ranges = await allocateSerials(tx, p.id, p.total_tons, input.tons);
  const units = await allocateUnits(tx, p.id, input.tons);
  const id = newRetirementId();
  await openRetirementAccount(tx, p.id);
  const entryId = await post(tx, {
    kind: 'credit_retire',
    ref_type: 'retirement',
    ref_id: 0, // the retirement's id is text: it is in the memo, and the retirement row names this entry
    memo: `Retired ${input.tons} t of ${p.name} for ${input.beneficiary} (certificate ${id})`,
    now,
    postings: [
      { owner: userId, account: 'credits', amount: -input.tons },
      { owner: 0, account: retirementAccount(p.id), amount: input.tons },
    ],
  });
  await tx
    .insertInto('retirements')
    .values({
      id,
      user_id: userId,
      project_id: p.id,
      tons: input.tons,
      beneficiary: input.beneficiary,
      reason: input.reason,
      beneficiary_hidden: input.hide_beneficiary ? 1 : 0,
      entry_id: entryId,
      created_at: now,
      icc_year: input.icc_year,
      icc_rules_version: checked.icc?.rules_version ?? '',
    })
    .execute();
  if (checked.icc) await keepSurrenderVerdict(tx, id, checked.icc);
  await tx
    .insertInto('retirement_serials')
    .values(ranges.map((r) => ({ retirement_id: id, project_id: p.id, first_seq: r.first, last_seq: r.last })))
    .execute();
  // The registry units it cancels and its pending cancellation: in this transaction, with the retirement.
  if (units) await tx.insertInto('retirement_units').values(units.map((u) => ({ retirement_id: id, block_id: u.block_id, first_unit: u.first, last_unit: u.last }))).execute();
  await openCancellation(tx, id, p.id, now, deps.config);
  const registrySerials = units ? await registrySerialsOf(tx, [id]) : new Map<string, string[]>();
  await publish(w, { type: 'invalidate', tables: ['user', 'fundlogs', 'retirements'] }, userId, now);
  await publish(w, { type: 'invalidate', tables: ['retirements'], ids: [p.id] }, null, now);
  const icc = input.icc_year === null ? null : await iccCount(tx, userId, input.icc_year);
  const certificate_url = certificateUrl(deps, id);
  await emitWebhookEvent(w, { owner: userId, mode: 'live', type: 'retirement.created', data: { id, project_id: p.id, tons: input.tons, beneficiary: input.beneficiary, reason: input.reason, certificate_url, registry: p.registry, registry_serials: registrySerials.get(id) ?? [], created_at: now } }, now);
  return {
    id,
    tons: input.tons,
    serials: ranges.map((r) => ({ from: serialOf(p, r.first), to: serialOf(p, r.last) })),
    registry: p.registry,
    registry_serials: registrySerials.get(id) ?? [],
    registry_due_on: dueDate(cancellationDueAt(now, deps.config)),
    certificate_url,
    icc,
  };
}

// ---------------------------------------------------------------------------------------------------
// Reads

type RetirementRow = { id: string; user_id: number; project_id: number; tons: number; beneficiary: string; reason: string; beneficiary_hidden: number; created_at: number; due_at: number | null; reference: string | null; cancelled_on: string | null } & Omit<RetirableProject, 'id' | 'status' | 'total_tons' | Exclude<(typeof ICC_COLUMNS)[number], 'vintage'>>;

function retirementsQuery(db: DB) {
  return db
    .selectFrom('retirements as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .leftJoin('registry_cancellations as c', 'c.retirement_id', 'r.id')
    .select(['r.id', 'r.user_id', 'r.project_id', 'r.tons', 'r.beneficiary', 'r.reason', 'r.beneficiary_hidden', 'r.created_at'])
    .select(['c.due_at', 'c.reference', 'c.cancelled_on'])
    .select(['p.name', 'p.name_cn', 'p.registry', 'p.registry_id', 'p.standard', 'p.methodology', 'p.vintage', 'p.country', 'p.country_cn', 'p.location', 'p.location_cn']);
}

/** The serial ranges of these retirements (each of its project), in order, by retirement id: what a
 *  certificate shows and what the operator's retirement:list prints. */
export async function serialRangesOf(db: DB, rows: ReadonlyArray<{ id: string; registry_id: string; vintage: number }>): Promise<Map<string, SerialRange[]>> {
  const byId = new Map<string, SerialRange[]>(rows.map((r) => [r.id, []]));
  if (rows.length === 0) return byId;
  const serials = await db
    .selectFrom('retirement_serials')
    .select(['retirement_id', 'first_seq', 'last_seq'])
    .where(
      'retirement_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('first_seq')
    .execute();
  const projectOf = new Map(rows.map((r) => [r.id, r]));
  for (const s of serials) {
    const r = projectOf.get(s.retirement_id)!;
    byId.get(s.retirement_id)!.push({ from: serialOf(r, Number(s.first_seq)), to: serialOf(r, Number(s.last_seq)) });
  }
  return byId;
}

/** Who reads a certificate: its owner sees the beneficiary and reason they gave; the public does not when
 *  the owner chose to show "a Canopy customer" (docs/product.md#retirement). */
type Reader = 'owner' | 'public';

async function toCertificates(db: DB, deps: Pick<Deps, 'config'>, rows: RetirementRow[], reader: Reader): Promise<Certificate[]> {
  if (rows.length === 0) return [];
  const [byId, registryById] = await Promise.all([serialRangesOf(db, rows), registrySerialsOf(db, rows.map((r) => r.id))]);
  return rows.map((r) => {
    const hidden = r.beneficiary_hidden === 1;
    const shown = !hidden || reader === 'owner';
    return {
      id: r.id,
      beneficiary: shown ? r.beneficiary : '',
      reason: shown ? r.reason : '',
      beneficiary_hidden: hidden,
      tons: r.tons,
      serials: byId.get(r.id) ?? [],
      project_id: r.project_id,
      project_name: r.name,
      project_name_cn: r.name_cn || r.name,
      registry: r.registry,
      registry_id: r.registry_id,
      standard: r.standard,
      methodology: r.methodology,
      vintage: r.vintage,
      country: r.country,
      country_cn: r.country_cn || r.country,
      location: r.location,
      location_cn: r.location_cn || r.location,
      retired_at: isoSgt(r.created_at),
      retired_at_ms: r.created_at,
      certificate_url: certificateUrl(deps, r.id),
      registry_status: r.reference === null ? ('pending' as const) : ('cancelled' as const),
      registry_serials: registryById.get(r.id) ?? [],
      registry_reference: r.reference,
      registry_cancelled_on: r.cancelled_on,
      registry_due_on: r.due_at === null ? null : dueDate(Number(r.due_at)),
      registry_url: registryUrl(r.registry, r.registry_id),
    };
  });
}

/** The caller's retirements, newest first, paged as every list. */
export async function retirementsOf(deps: Deps, userId: number, q: { page: number; page_size: number }) {
  const { db } = deps;
  const [rows, count] = await Promise.all([
    retirementsQuery(db)
      .where('r.user_id', '=', userId)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id')
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size)
      .execute(),
    db.selectFrom('retirements').select(sql<number>`count(*)`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow(),
  ]);
  return { list: await toCertificates(db, deps, rows, 'owner'), total: Number(count.n), page: q.page, page_size: q.page_size };
}

/** One public certificate; an id that is malformed or unknown is the same not-found refusal. */
export async function certificateOf(deps: Deps, id: string): Promise<Certificate> {
  if (!CERTIFICATE_ID.test(id)) throw new AppError('certificate_not_found');
  const row = await retirementsQuery(deps.db).where('r.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('certificate_not_found');
  return (await toCertificates(deps.db, deps, [row], 'public'))[0]!;
}

/** YYYY-MM of an instant in SGT. */
const sgtMonth = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 7);

/** The last `n` SGT months ending with the one of `now`, oldest first. */
function lastMonths(now: number, n: number): string[] {
  const d = new Date(now + 8 * 3_600_000);
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1));
    out.push(m.toISOString().slice(0, 7));
  }
  return out;
}

const MONTHS = 12;
/** How long one ledger check stands for the transparency page (a check reads every fund log). */
const LEDGER_CHECK_MS = 30_000;
const ledgerChecks = new WeakMap<DB, { at: number; result: Transparency['ledger'] }>();

/** The check running now, per database: requests that arrive together while the stored result is stale
 *  share one check instead of each reading every fund log. */
const ledgerRunning = new WeakMap<DB, Promise<Transparency['ledger']>>();

async function ledgerResult(db: DB, now: number): Promise<Transparency['ledger']> {
  const have = ledgerChecks.get(db);
  if (have && have.at <= now && now - have.at < LEDGER_CHECK_MS) return have.result;
  const running = ledgerRunning.get(db);
  if (running) return running;
  const check = runLedgerCheck(db, now).finally(() => ledgerRunning.delete(db));
  ledgerRunning.set(db, check);
  return check;
}

async function runLedgerCheck(db: DB, now: number): Promise<Transparency['ledger']> {
  const report = await checkLedger(db);
  const result = {
    ok: report.ok,
    checked_at: isoSgt(now),
    checked_at_ms: now,
    totals: report.totals,
    problems: report.problems.length + report.retirement_problems.length + report.holding_problems.length,
  };
  ledgerChecks.set(db, { at: now, result });
  return result;
}

/** Forget the stored ledger check (tests that break the ledger on purpose). */
export function forgetLedgerCheck(db: DB): void {
  ledgerChecks.delete(db);
}

/** Transparency answers hold this long without an event (a booking's or the ledger check's age). */
const TRANSPARENCY_HOLD_MS = 30_000;

/** The public transparency figures, kept by the response cache a short while (TRANSPARENCY_HOLD_MS). */
export async function publicTransparency(deps: Deps): Promise<PublicAnswer> {
  const now = deps.clock.now();
  return { data: await transparency(deps.db, now), until: now + TRANSPARENCY_HOLD_MS };
}

/** The public transparency figures: per public project issued, sold, booked, retired, remaining (tons), held
 *  on the registry, retired and cancelled there, retired and waiting,
 *  platform totals, retired per SGT month, and the ledger check. issued = sold + booked + remaining. */
async function transparency(db: DB, now: number): Promise<Transparency> {
  const months = lastMonths(now, MONTHS);
  const since = Date.parse(`${months[0]!}-01T00:00:00+08:00`);
  const [projects, booked, retired, recent, ledger] = await Promise.all([
    db
      .selectFrom('projects')
      .select(['id', 'name', 'name_cn', 'registry', 'registry_id', 'vintage', 'country', 'country_cn', 'status', 'total_tons', 'remaining_tons', 'block_tons', 'cancelled_tons'])
      .where('status', '!=', 'pending_review')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('orders')
      .select(['project_id', sql<number>`coalesce(sum(tons), 0)`.as('n')])
      .where('kind', '=', 'presale')
      .where('status', '=', 'applying')
      .groupBy('project_id')
      .execute(),
    db
      .selectFrom('retirements as r')
      .leftJoin('registry_cancellations as c', 'c.retirement_id', 'r.id')
      .select(['r.project_id', sql<number>`coalesce(sum(r.tons), 0)`.as('n'), sql<number>`coalesce(sum(case when c.recorded_at is not null then r.tons else 0 end), 0)`.as('cancelled')])
      .groupBy('r.project_id')
      .execute(),
    db.selectFrom('retirements').select(['created_at', 'tons']).where('created_at', '>=', since).execute(),
    ledgerResult(db, now),
  ]);
  const bookedOf = new Map(booked.map((r) => [r.project_id, Number(r.n)]));
  const retiredOf = new Map(retired.map((r) => [r.project_id, { retired: Number(r.n), cancelled: Number(r.cancelled) }]));
  const list = projects.map((p) => projectFigures(p, bookedOf.get(p.id) ?? 0, retiredOf.get(p.id) ?? { retired: 0, cancelled: 0 }));
  const totals = { issued: 0, sold: 0, booked: 0, retired: 0, remaining: 0, held: 0, cancelled: 0, waiting: 0 };
  for (const p of list) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += p[k];
  return { projects: list, totals, monthly: retiredPerMonth(months, recent), ledger, generated_at: isoSgt(now) };
}

type TransparencySource = Omit<TransparencyProject, 'issued' | 'sold' | 'booked' | 'retired' | 'remaining' | 'held' | 'cancelled' | 'waiting'> & { total_tons: number; remaining_tons: number; block_tons: number; cancelled_tons: number };

/** One project's figures: bookings count against what remains, never beyond it; on the registry, what the
 *  account holds and the retired tons cancelled there or still waiting. */
function projectFigures(p: TransparencySource, booked: number, { retired, cancelled }: { retired: number; cancelled: number }): TransparencyProject {
  const b = Math.min(booked, p.remaining_tons);
  return {
    id: p.id,
    name: p.name,
    name_cn: p.name_cn || p.name,
    registry: p.registry,
    registry_id: p.registry_id,
    vintage: p.vintage,
    country: p.country,
    country_cn: p.country_cn || p.country,
    status: p.status,
    issued: p.total_tons,
    sold: p.total_tons - p.remaining_tons,
    booked: b,
    retired,
    remaining: p.remaining_tons - b,
    held: Number(p.block_tons) - Number(p.cancelled_tons),
    cancelled,
    waiting: retired - cancelled,
  };
}

/** Tons retired in each of `months` (SGT), oldest first. */
function retiredPerMonth(months: readonly string[], recent: ReadonlyArray<{ created_at: number; tons: number }>): Transparency['monthly'] {
  const perMonth = new Map(months.map((m) => [m, 0]));
  for (const r of recent) {
    const m = sgtMonth(r.created_at);
    if (perMonth.has(m)) perMonth.set(m, perMonth.get(m)! + r.tons);
  }
  return [...perMonth].map(([month, tons]) => ({ month, tons }));
}
