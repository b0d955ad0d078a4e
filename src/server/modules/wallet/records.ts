import type { Selectable } from 'kysely';
import type { FundLogsTable, TopupsTable, WithdrawalsTable } from '../../db/schema';
import { isoSgt } from '../../lib/clock';
import { maskAccountNo } from '../user/card';
import { maskPaynow, type FundLogRow, type TopupRecord, type WithdrawalRecord } from '../../../shared/schemas/wallet';
import { buildPayNowPayload, REFERENCE_PATTERN } from '../../../shared/paynow';

// Database rows -> what the API answers (times as ISO SGT plus epoch ms; account numbers masked).

/** The PayNow payee of the QRs: the one legal entity (config COMPANY_UEN, COMPANY_NAME), the name the receipts carry. */
interface PayNowPayee {
  COMPANY_UEN: string;
  COMPANY_NAME: string;
}

/** The QR payload of a PayNow top-up that has an expiry and a well-formed reference; null otherwise. */
function topupQr(row: Pick<Selectable<TopupsTable>, 'method' | 'amount' | 'reference' | 'expires_at' | 'first_topup_id' | 'flag'>, payee: PayNowPayee): string | null {
  if (row.method !== 'paynow' || row.expires_at === null || row.first_topup_id !== null || row.flag === 'manual' || !REFERENCE_PATTERN.test(row.reference)) return null;
  return buildPayNowPayload({ uen: payee.COMPANY_UEN, name: payee.COMPANY_NAME, amountCents: row.amount, reference: row.reference, expiry: row.expires_at });
}

export function topupRecord(row: Selectable<TopupsTable>, payee: PayNowPayee): TopupRecord {
  return {
    id: row.id,
    amount: row.amount,
    method: row.method,
    reference: row.reference,
    status: row.status,
    note: row.note,
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
    decided_at: row.decided_at === null ? null : isoSgt(row.decided_at),
    decided_at_ms: row.decided_at,
    paynow_qr: topupQr(row, payee),
    expires_at: row.expires_at === null ? null : isoSgt(row.expires_at),
    expires_at_ms: row.expires_at,
    received_amount: row.received_amount,
    flag: row.flag,
    first_topup_id: row.first_topup_id,
  };
}

export function withdrawalRecord(row: Selectable<WithdrawalsTable>): WithdrawalRecord {
  return {
    id: row.id,
    amount: row.amount,
    fee: row.fee,
    total: row.amount + row.fee,
    method: row.method,
    bank_name: row.bank_name,
    account_no: maskAccountNo(row.account_no),
    holder_name: row.holder_name,
    paynow: row.paynow && maskPaynow(row.paynow),
    status: row.status,
    note: row.note,
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
    decided_at: row.decided_at === null ? null : isoSgt(row.decided_at),
    decided_at_ms: row.decided_at,
  };
}

/** The order (or retirement: no order number) a fund log belongs to, with its project's names in both
 *  languages. */
export interface FundLogOrder {
  order_no: string | null;
  project_id: number;
  project_name: string;
  project_name_cn: string;
}

export function fundLogRow(row: Selectable<FundLogsTable>, order?: FundLogOrder): FundLogRow {
  return {
    id: row.id,
    entry_id: row.entry_id,
    kind: row.kind,
    account_name: row.account_name,
    unit: row.unit,
    amount: row.amount,
    balance_after: row.balance_after,
    memo: row.memo,
    ref_type: row.ref_type,
    ref_id: row.ref_id,
    order_no: order?.order_no ?? null,
    project_id: order?.project_id ?? null,
    project_name: order?.project_name ?? null,
    project_name_cn: order?.project_name_cn ?? null,
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
  };
}
