import { sql, type Selectable } from 'kysely';
import type { DB } from '../../db/connection';
import type { ReceiptsTable } from '../../db/schema';
import type { Deps } from '../../env';
import { isoSgt } from '../../lib/clock';
import { AppError } from '../../lib/http';
import type { Receipt } from '../../../shared/schemas/receipt';
import { certificateUrl, serialRangesOf } from '../retire/service';

// Receipts (docs/product.md#receipts): the rows the ledger writes with each money event (ledger/receipts.ts),
// read back with what they are for: the order and its project, the retirement and its serials, the top-up or
// the withdrawal. Only the account's own: another account's receipt is the same not-found as none.

type ReceiptRow = Selectable<ReceiptsTable>;
type Details = Pick<Receipt, 'reference' | 'order_id' | 'project_name' | 'project_name_cn' | 'tons' | 'serials' | 'unit_price' | 'payment_method' | 'certificate_url'>;
type Config = Pick<Deps, 'config'>;

const ORDER_KINDS = new Set<ReceiptRow['kind']>(['purchase', 'booking', 'final_payment', 'sale']);

function receiptsQuery(db: DB, ownerId: number) {
  return db.selectFrom('receipts').selectAll().where('owner_id', '=', ownerId);
}

/** The account's receipts: those of an order, of a fund-log entry, of a retirement, or all; newest first. */
export async function receiptsOf(deps: Deps, ownerId: number, q: { page: number; page_size: number; order_id?: number | undefined; entry_id?: number | undefined; retirement_id?: string | undefined }) {
  let query = receiptsQuery(deps.db, ownerId);
  if (q.order_id !== undefined) query = query.where('ref_type', '=', 'order').where('ref_id', '=', q.order_id).where('kind', 'in', [...ORDER_KINDS]);
  if (q.entry_id !== undefined) query = query.where('entry_id', '=', q.entry_id);
  if (q.retirement_id !== undefined) query = query.where('entry_id', '=', (eb) => eb.selectFrom('retirements').select('entry_id').where('id', '=', q.retirement_id!));
  const [rows, count] = await Promise.all([
    query.orderBy('number', 'desc').limit(q.page_size).offset((q.page - 1) * q.page_size).execute(),
    query.clearSelect().select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: await toReceipts(deps.db, deps, rows), total: Number(count.n), page: q.page, page_size: q.page_size };
}

/** One of the account's receipts. */
export async function receiptOf(deps: Deps, ownerId: number, id: number): Promise<Receipt> {
  const row = await receiptsQuery(deps.db, ownerId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('receipt_not_found');
  return (await toReceipts(deps.db, deps, [row]))[0]!;
}

/** A receipt whoever's it is, with where its mail goes: for the mail job only. */
export async function receiptForMail(db: DB, deps: Config, id: number): Promise<{ receipt: Receipt; lang: 'en' | 'cn' } | null> {
  const row = await db.selectFrom('receipts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const owner = await db.selectFrom('users').select('lang').where('id', '=', row.owner_id).executeTakeFirst();
  return { receipt: (await toReceipts(db, deps, [row]))[0]!, lang: owner?.lang === 'cn' ? 'cn' : 'en' };
}

async function toReceipts(db: DB, deps: Config, rows: ReceiptRow[]): Promise<Receipt[]> {
  const details = await Promise.all(rows.map((r) => detailsOf(db, deps, r)));
  const company = { name: deps.config.COMPANY_NAME, uen: deps.config.COMPANY_UEN, address: deps.config.COMPANY_ADDRESS };
  return rows.map((r, i) => ({
    id: r.id,
    number: Number(r.number),
    kind: r.kind,
    ...details[i]!,
    fee: Number(r.fee),
    total: Number(r.total),
    company,
    created_at: isoSgt(Number(r.created_at)),
    created_at_ms: Number(r.created_at),
  }));
}

const NONE: Details = { reference: '', order_id: null, project_name: '', project_name_cn: '', tons: 0, serials: [], unit_price: 0, payment_method: 'none', certificate_url: '' };

function detailsOf(db: DB, deps: Config, r: ReceiptRow): Promise<Details> {
  if (ORDER_KINDS.has(r.kind)) return orderDetails(db, r);
  if (r.kind === 'retirement') return retirementDetails(db, deps, r);
  return moneyDetails(db, r);
}

async function orderDetails(db: DB, r: ReceiptRow): Promise<Details> {
  const o = await db
    .selectFrom('orders as o')
    .innerJoin('projects as p', 'p.id', 'o.project_id')
    .select(['o.id', 'o.order_no', 'o.tons', 'o.unit_price', 'o.final_tons', 'o.final_unit_price', 'p.name', 'p.name_cn'])
    .where('o.id', '=', r.ref_id)
    .executeTakeFirst();
  if (!o) return NONE;
  const final = r.kind === 'final_payment';
  return {
    ...NONE,
    reference: o.order_no,
    order_id: o.id,
    project_name: o.name,
    project_name_cn: o.name_cn || o.name,
    tons: Number(final ? (o.final_tons ?? o.tons) : o.tons),
    unit_price: Number(final ? (o.final_unit_price ?? o.unit_price) : o.unit_price),
    payment_method: 'wallet',
  };
}

async function retirementDetails(db: DB, deps: Config, r: ReceiptRow): Promise<Details> {
  const t = await db
    .selectFrom('retirements as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select(['t.id', 't.tons', 'p.name', 'p.name_cn', 'p.registry_id', 'p.vintage'])
    .where('t.entry_id', '=', r.entry_id)
    .executeTakeFirst();
  if (!t) return NONE;
  const serials = (await serialRangesOf(db, [t])).get(t.id) ?? [];
  return { ...NONE, reference: t.id, project_name: t.name, project_name_cn: t.name_cn || t.name, tons: Number(t.tons), serials, certificate_url: certificateUrl(deps, t.id) };
}

async function moneyDetails(db: DB, r: ReceiptRow): Promise<Details> {
  const row =
    r.kind === 'topup'
      ? await db.selectFrom('topups').select(['id', 'method']).where('id', '=', r.ref_id).executeTakeFirst()
      : await db.selectFrom('withdrawals').select(['id', 'method']).where('id', '=', r.ref_id).executeTakeFirst();
  if (!row) return NONE;
  return { ...NONE, reference: `#${row.id}`, payment_method: row.method };
}
