import type { Deps } from '../../env';
import { writeTx, type EffectRecord, type Tx } from '../../db/tx';
import type { DB } from '../../db/connection';
import { pageOf, type PageQuery } from '../../db/paging';
import { isoSgt } from '../../lib/clock';
import { publish } from '../../live/events';
import { payerOf, type User } from '../session';
import { AppError } from '../../lib/http';
import { makerTrades } from './maker';
import { verifyTradePassword } from '../user/trade-password';
import { ERRORS, errorMessage, isErrorKey, type Lang, type MessageParams } from '../../../shared/errors';
import { firstDueAt, offsetConsentText } from '../../../shared/offset';
import type { OffsetPlan, OffsetPlanPage, OffsetRun, OffsetStatus } from '../../../shared/schemas/offset';
import { checkOwnPlan, checkSubscribe, type PlanRow, type SubscribeFacts } from './checks';

// Monthly offset plans (docs/product.md#monthly-offset): subscribe (the payment password once, the consent
// text and time kept with the plan), change, pause, resume, cancel, and her list. Each month's buy is
// run.ts's. Every write reads its facts, checks them before the password and again in its transaction.

export interface PlanInput {
  project_id: number;
  tons: number;
  day: number;
  password: string;
}

async function subscribeFacts(db: DB | Tx, userId: number, projectId: number): Promise<SubscribeFacts> {
  const [p, open] = await Promise.all([
    db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst(),
    db.selectFrom('offset_plans').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).where('status', '!=', 'cancelled').executeTakeFirst(),
  ]);
  return { p, openPlans: Number(open?.n ?? 0) };
}

async function standingOf(db: DB | Tx, user: User): Promise<User> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirst();
  return row ?? user;
}

const planRow = (db: DB | Tx, id: number) => db.selectFrom('offset_plans').selectAll().where('id', '=', id).executeTakeFirst();

/** Subscribe: the checks, the payment password, then the plan with the consent in her language. */
export async function createPlan(deps: Deps, user: User, input: PlanInput, lang: Lang, record?: EffectRecord): Promise<OffsetPlan> {
  const { db, clock } = deps;
  checkSubscribe(await subscribeFacts(db, user.id, input.project_id), user, input.tons, clock.now(), true);
  await verifyTradePassword(deps, user, input.password, 'project_password_incorrect');
  return writeTx(
    db,
    async (tx, w) => {
      const now = clock.now();
      const p = checkSubscribe(await subscribeFacts(tx, user.id, input.project_id), await standingOf(tx, user), input.tons, now, true);
      const consent = offsetConsentText(lang, { tons: input.tons, project: lang === 'cn' ? p.name_cn || p.name : p.name, day: input.day });
      const row = await tx
        .insertInto('offset_plans')
        .values({ user_id: user.id, made_by: payerOf(user).id, project_id: p.id, tons: input.tons, day: input.day, status: 'active', consent_text: consent, consent_at: now, next_run_at: firstDueAt(now, input.day), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await publish(w, { type: 'invalidate', tables: ['offsets'] }, user.id, now);
      // The answer is read in the transaction: it is what the Idempotency-Key stores with the plan.
      return planOf(tx, row.id);
    },
    record,
  );
}

/** Change tons and day: a new consent, so the password again, and the person who gave it the plan's maker;
 *  the next due time follows the new day (a month already bought or refused is not bought again: run.ts
 *  finds its outcome). */
export async function changePlan(deps: Deps, user: User, input: { id: number; tons: number; day: number; password: string }, lang: Lang, record?: EffectRecord): Promise<OffsetPlan> {
  const { db, clock } = deps;
  const before = checkOwnPlan(await planRow(db, input.id), user);
  checkSubscribe(await subscribeFacts(db, user.id, before.project_id), user, input.tons, clock.now(), false);
  await verifyTradePassword(deps, user, input.password, 'project_password_incorrect');
  return writeTx(
    db,
    async (tx, w) => {
      const now = clock.now();
      const plan = checkOwnPlan(await planRow(tx, input.id), user);
      const p = checkSubscribe(await subscribeFacts(tx, user.id, plan.project_id), await standingOf(tx, user), input.tons, now, false);
      const consent = offsetConsentText(lang, { tons: input.tons, project: lang === 'cn' ? p.name_cn || p.name : p.name, day: input.day });
      const next = plan.status === 'active' ? firstDueAt(now, input.day) : null;
      await tx.updateTable('offset_plans').set({ tons: input.tons, day: input.day, consent_text: consent, consent_at: now, made_by: payerOf(user).id, next_run_at: next, updated_at: now }).where('id', '=', plan.id).execute();
      await publish(w, { type: 'invalidate', tables: ['offsets'] }, user.id, now);
      return planOf(tx, plan.id);
    },
    record,
  );
}

/** Pause (no buy until resumed), resume (from the next due day after now: a paused month is not caught
 *  up) or cancel (for good). The same status again changes nothing. A plan whose maker no longer trades for
 *  the account resumes only after a change (maker.ts). */
export async function setPlanStatus(deps: Deps, user: User, input: { id: number; status: OffsetStatus }, record?: EffectRecord): Promise<OffsetPlan> {
  const { db, clock } = deps;
  checkOwnPlan(await planRow(db, input.id), user);
  return writeTx(
    db,
    async (tx, w) => {
      const now = clock.now();
      const plan = checkOwnPlan(await planRow(tx, input.id), user);
      if (plan.status === input.status) return planOf(tx, plan.id);
      if (input.status === 'active' && !(await makerTrades(tx, plan))) throw new AppError('offset_maker_gone');
      const next = input.status === 'active' ? firstDueAt(now, plan.day) : null;
      await tx.updateTable('offset_plans').set({ status: input.status, next_run_at: next, updated_at: now }).where('id', '=', plan.id).execute();
      await publish(w, { type: 'invalidate', tables: ['offsets'] }, user.id, now);
      return planOf(tx, plan.id);
    },
    record,
  );
}

const planQuery = (db: DB | Tx) =>
  db
    .selectFrom('offset_plans as o')
    .innerJoin('projects as p', 'p.id', 'o.project_id')
    .leftJoin('offset_runs as r', (j) => j.onRef('r.plan_id', '=', 'o.id').on('r.month', '=', (eb) => eb.selectFrom('offset_runs as r2').select((e) => e.fn.max('r2.month').as('m')).whereRef('r2.plan_id', '=', 'o.id')))
    .selectAll('o')
    .select(['p.name as p_name', 'p.name_cn as p_name_cn', 'p.image as p_image', 'r.month as r_month', 'r.outcome as r_outcome', 'r.order_id as r_order_id', 'r.reason as r_reason', 'r.reason_params as r_reason_params']);

type PlanJoined = PlanRow & { p_name: string; p_name_cn: string; p_image: string; r_month: string | null; r_outcome: 'placed' | 'refused' | null; r_order_id: number | null; r_reason: string | null; r_reason_params: string | null };

async function planOf(db: DB | Tx, id: number): Promise<OffsetPlan> {
  return toPlan((await planQuery(db).where('o.id', '=', id).executeTakeFirstOrThrow()) as PlanJoined);
}

/** Her plans, newest first, each with its last month's outcome. */
export async function plansOf(deps: Deps, user: User, q: PageQuery): Promise<OffsetPlanPage> {
  const base = deps.db.selectFrom('offset_plans').where('user_id', '=', user.id);
  const page = await pageOf(base, q, (b) => b.select('id').orderBy('id', 'desc'), (r) => r.id);
  if (page.list.length === 0) return { ...page, list: [] };
  const rows = (await planQuery(deps.db).where('o.id', 'in', page.list).orderBy('o.id', 'desc').execute()) as PlanJoined[];
  return { ...page, list: rows.map(toPlan) };
}

/** Why a month's buy was refused, in a language, from the catalogue key and numbers its row keeps. */
export function reasonText(reason: string | null, params: string | null, lang: Lang): string {
  if (!reason || !isErrorKey(reason)) return '';
  return errorMessage(reason, lang, params ? (JSON.parse(params) as MessageParams) : undefined);
}

function lastRun(r: PlanJoined): OffsetRun | null {
  if (!r.r_month || !r.r_outcome) return null;
  const code = r.r_reason && isErrorKey(r.r_reason) ? ERRORS[r.r_reason].code : null;
  return { month: r.r_month, outcome: r.r_outcome, order_id: r.r_order_id, reason_code: code, reason: reasonText(r.r_reason, r.r_reason_params, 'en'), reason_cn: reasonText(r.r_reason, r.r_reason_params, 'cn') };
}

function toPlan(r: PlanJoined): OffsetPlan {
  return {
    id: r.id,
    project_id: r.project_id,
    project_name: r.p_name,
    project_name_cn: r.p_name_cn || r.p_name,
    project_image: r.p_image,
    tons: r.tons,
    day: r.day,
    status: r.status,
    consent_text: r.consent_text,
    consent_at: isoSgt(r.consent_at),
    consent_at_ms: r.consent_at,
    next_run_at: r.next_run_at === null ? null : isoSgt(r.next_run_at),
    next_run_at_ms: r.next_run_at,
    last_run: lastRun(r),
    created_at: isoSgt(r.created_at),
    created_at_ms: r.created_at,
  };
}
