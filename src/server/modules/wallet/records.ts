import type { Selectable } from 'kysely';
import type { FundLogsTable, TopupsTable, WithdrawalsTable } from '../../db/schema';
import { isoSgt } from '../../lib/clock';
import { maskAccountNo } from '../user/card';
import type { FundLogRow, TopupRecord, WithdrawalRecord } from '../../../shared/schemas/wallet';

// Database rows -> what the API answers (times as ISO SGT plus epoch ms; account numbers masked).

export function topupRecord(row: Selectable<TopupsTable>): TopupRecord {
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
    paynow: row.paynow,
    status: row.status,
    note: row.note,
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
    decided_at: row.decided_at === null ? null : isoSgt(row.decided_at),
    decided_at_ms: row.decided_at,
  };
}

export function fundLogRow(row: Selectable<FundLogsTable>): FundLogRow {
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
    created_at: isoSgt(row.created_at),
    created_at_ms: row.created_at,
  };
}
