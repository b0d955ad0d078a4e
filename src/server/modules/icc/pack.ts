import type { DB } from '../../db/connection';
import { AppError } from '../../lib/http';
import type { User } from '../session';
import { ICC_RULES } from '../../../shared/icc/current-rules';
import { ICC_COLUMNS, iccFactsOf, judgeIcc, type IccJudgement } from '../../../shared/icc/engine';
import type { IccVerdict } from '../../../shared/icc/values';
import type { IccPackQuery } from '../../../shared/schemas/icc';
import { keptJudgement } from '../retire/icc-count';
import { serialRangesOf } from '../retire/service';
import { registrySerialsOf, registryUrl } from '../retire/registry-units';

// What an evidence pack holds (docs/product.md#singapore-carbon-tax): every purchase and retirement of the
// account in a period of SGT days. A purchase's amount is what the ledger credited to the platform's sales
// for that order, so the pack's total equals the ledger to the cent; a retirement carries its serial ranges.
// The PDF and the CSV are two renderings of the same rows (pack-pdf.ts, pack-csv.ts).

const DAY_MS = 86_400_000;
const SGT_MS = 8 * 3_600_000;
/** The longest period one pack covers, in days: three years and a leap day. */
const MAX_DAYS = 3 * 365 + 1;

export interface PackRow {
  kind: 'purchase' | 'retirement';
  at: number;
  /** The order number, or the certificate id. */
  ref: string;
  project: string;
  project_cn: string;
  host_country: string;
  programme: string;
  methodology: string;
  vintage: number;
  reduction_period: string;
  registry: string;
  registry_id: string;
  registry_url: string;
  serials: string[];
  /** Retirements: the units as the registry writes them, and their cancellation there: '' for a purchase,
   *  pending, or cancelled with the registry's reference and day (docs/product.md#registry-cancellation). */
  registry_serials: string[];
  registry_status: '' | 'pending' | 'cancelled';
  registry_reference: string;
  registry_cancelled_on: string;
  icc: IccJudgement;
  /** Whose verdict `icc` is: the one a surrender for the tax was judged with and keeps, or today's rules
   *  (a purchase, a retirement not surrendered for the tax). */
  icc_judged: 'surrender' | 'today';
  /** Retirements: the compliance year it was surrendered for, or null. */
  icc_year: number | null;
  tons: number;
  /** Purchases: cents per ton and the amount in cents; null on a retirement (no money moves). */
  unit_price: number | null;
  amount: number | null;
}

export interface Pack {
  account: { id: number; name: string; email: string };
  from: string;
  to: string;
  issued_at: number;
  rules_version: string;
  rows: PackRow[];
  totals: { purchased_tons: number; amount: number; retired_tons: number; surrendered: Array<{ year: number; tons: number }> };
}

/** The period's bounds in epoch ms: from SGT midnight of `from` to SGT midnight after `to`. */
export function packPeriod(q: Pick<IccPackQuery, 'from' | 'to'>): { start: number; end: number } {
  const start = Date.parse(`${q.from}T00:00:00Z`) - SGT_MS;
  const end = Date.parse(`${q.to}T00:00:00Z`) - SGT_MS + DAY_MS;
  if (!(end > start) || end - start > MAX_DAYS * DAY_MS) throw new AppError('icc_period_invalid');
  return { start, end };
}

type ProjectFacts = Pick<PackRow, 'project' | 'project_cn' | 'host_country' | 'programme' | 'methodology' | 'vintage' | 'reduction_period' | 'registry' | 'registry_id' | 'registry_url' | 'icc' | 'icc_judged'>;

function projectFacts(p: { name: string; name_cn: string; registry: string; registry_id: string; methodology: string; vintage: number } & Parameters<typeof iccFactsOf>[0]): ProjectFacts {
  const period = p.reduction_start === null || p.reduction_end === null ? '' : p.reduction_start === p.reduction_end ? String(p.reduction_start) : `${p.reduction_start}-${p.reduction_end}`;
  return {
    project: p.name,
    project_cn: p.name_cn || p.name,
    host_country: p.host_country,
    programme: p.programme,
    methodology: p.methodology_id ? `${p.methodology_id}${p.methodology_date ? ` (${p.methodology_date})` : ''}` : p.methodology,
    vintage: p.vintage,
    reduction_period: period,
    registry: p.registry,
    registry_id: p.registry_id,
    registry_url: registryUrl(p.registry, p.registry_id),
    icc: judgeIcc(iccFactsOf(p), ICC_RULES),
    icc_judged: 'today',
  };
}

const P_COLUMNS = ['p.name', 'p.name_cn', 'p.registry', 'p.registry_id', 'p.methodology', ...ICC_COLUMNS.map((c) => `p.${c}` as const)] as const;

/** Purchases from the ledger: each credit to the platform's sales for one of the account's buy orders. */
async function purchases(db: DB, userId: number, start: number, end: number): Promise<PackRow[]> {
  const rows = await db
    .selectFrom('fund_logs as fl')
    .innerJoin('orders as o', 'o.id', 'fl.ref_id')
    .innerJoin('projects as p', 'p.id', 'o.project_id')
    .select(['fl.amount', 'fl.created_at', 'o.order_no', 'o.tons', 'o.final_tons', 'o.unit_price', 'o.final_unit_price', ...P_COLUMNS])
    .where('fl.ref_type', '=', 'order')
    .where('fl.owner_id', '=', 0)
    .where('fl.account_name', '=', 'sales')
    .where('fl.kind', 'in', ['order_buy', 'presale_final_payment'])
    .where('o.user_id', '=', userId)
    .where('o.side', '=', 'buy')
    .where('fl.created_at', '>=', start)
    .where('fl.created_at', '<', end)
    .orderBy('fl.created_at')
    .orderBy('fl.id')
    .execute();
  return rows.map((r) => ({
    kind: 'purchase',
    at: Number(r.created_at),
    ref: r.order_no,
    ...projectFacts(r),
    serials: [],
    registry_serials: [],
    registry_status: '',
    registry_reference: '',
    registry_cancelled_on: '',
    icc_year: null,
    tons: Number(r.final_tons ?? r.tons),
    unit_price: Number(r.final_unit_price ?? r.unit_price),
    amount: Number(r.amount),
  }));
}

/** The verdict a surrender keeps (retirement_icc), replacing today's; nothing for another retirement. */
function kept(r: { verdict: IccVerdict | null; reasons: string | null; rules_version: string | null }): Partial<Pick<PackRow, 'icc' | 'icc_judged'>> {
  if (r.verdict === null || r.reasons === null || r.rules_version === null) return {};
  return { icc: keptJudgement({ verdict: r.verdict, reasons: r.reasons, rules_version: r.rules_version }), icc_judged: 'surrender' };
}

/** An account's retirements in [start, end), oldest first, each with its project (p) and its registry
 *  cancellation (c, empty until recorded): what the pack and its public check both list. */
function retirementsIn(db: DB, userId: number, start: number, end: number) {
  return db
    .selectFrom('retirements as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .leftJoin('registry_cancellations as c', 'c.retirement_id', 'r.id')
    .where('r.user_id', '=', userId)
    .where('r.created_at', '>=', start)
    .where('r.created_at', '<', end)
    .orderBy('r.created_at')
    .orderBy('r.id');
}

/** Retirements with their serial ranges; a surrender for the tax with the verdict it was judged with. */
async function retirements(db: DB, userId: number, start: number, end: number): Promise<PackRow[]> {
  const rows = await retirementsIn(db, userId, start, end)
    .leftJoin('retirement_icc as ri', 'ri.retirement_id', 'r.id')
    .select(['r.id', 'r.tons', 'r.created_at', 'r.icc_year', 'ri.verdict', 'ri.reasons', 'ri.rules_version', 'c.reference', 'c.cancelled_on', ...P_COLUMNS])
    .execute();
  const [serials, registrySerials] = await Promise.all([
    serialRangesOf(db, rows),
    registrySerialsOf(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((r) => ({
    kind: 'retirement',
    at: Number(r.created_at),
    ref: r.id,
    ...projectFacts(r),
    ...kept(r),
    serials: (serials.get(r.id) ?? []).map((s) => (s.from === s.to ? s.from : `${s.from} to ${s.to}`)),
    registry_serials: registrySerials.get(r.id) ?? [],
    registry_status: r.reference === null ? ('pending' as const) : ('cancelled' as const),
    registry_reference: r.reference ?? '',
    registry_cancelled_on: r.cancelled_on ?? '',
    icc_year: r.icc_year === null ? null : Number(r.icc_year),
    tons: Number(r.tons),
    unit_price: null,
    amount: null,
  }));
}

function totalsOf(rows: PackRow[]): Pack['totals'] {
  const byYear = new Map<number, number>();
  let purchased = 0;
  let amount = 0;
  let retired = 0;
  for (const r of rows) {
    if (r.kind === 'purchase') {
      purchased += r.tons;
      amount += r.amount ?? 0;
    } else {
      retired += r.tons;
      if (r.icc_year !== null) byYear.set(r.icc_year, (byYear.get(r.icc_year) ?? 0) + r.tons);
    }
  }
  const surrendered = [...byYear].sort(([a], [b]) => a - b).map(([year, tons]) => ({ year, tons }));
  return { purchased_tons: purchased, amount, retired_tons: retired, surrendered };
}

/** The account's name as a pack names it: the company of a corporate account, else the holder's name. */
export function accountName(u: Pick<User, 'company' | 'first_name' | 'last_name'>): string {
  return u.company.trim() || `${u.first_name} ${u.last_name}`.trim();
}

export async function readPack(db: DB, user: User, q: Pick<IccPackQuery, 'from' | 'to'>, now: number): Promise<Pack> {
  const { start, end } = packPeriod(q);
  const [bought, retired] = await Promise.all([purchases(db, user.id, start, end), retirements(db, user.id, start, end)]);
  const rows = [...bought, ...retired].sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind));
  return { account: { id: user.id, name: accountName(user), email: user.email }, from: q.from, to: q.to, issued_at: now, rules_version: ICC_RULES.version, rows, totals: totalsOf(rows) };
}

/** The retirements of an account in a pack's period with where each stands on its registry now: what the
 *  public check of a pack lists beside its verdict (docs/product.md#registry-cancellation). */
export async function packRegistryRows(db: DB, userId: number, q: Pick<IccPackQuery, 'from' | 'to'>) {
  const { start, end } = packPeriod(q);
  const rows = await retirementsIn(db, userId, start, end).select(['r.id', 'r.tons', 'r.created_at', 'r.icc_year', 'p.registry', 'c.reference', 'c.cancelled_on']).execute();
  const serials = await registrySerialsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    certificate_id: r.id,
    tons: Number(r.tons),
    retired_at_ms: Number(r.created_at),
    icc_year: r.icc_year === null ? null : Number(r.icc_year),
    registry: r.registry,
    registry_serials: serials.get(r.id) ?? [],
    registry_status: r.reference === null ? ('pending' as const) : ('cancelled' as const),
    registry_reference: r.reference,
    registry_cancelled_on: r.cancelled_on,
  }));
}
