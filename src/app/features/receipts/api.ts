import { useCallback, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { downloadFile, get, type ApiResult } from '../../lib/api';
import { db } from '../../lib/db';
import { useLiveRefresh } from '../../lib/live-refresh';
import { useOnline } from '../../lib/online';
import { PATHS, type Paged } from '../../../shared/api';
import type { Receipt } from '../../../shared/schemas/receipt';

// Receipts (docs/product.md#receipts): the member's receipts of an order, a fund-log entry or a retirement
// (or all of them), kept in Dexie's meta table per filter so they read offline (cleared on sign-out).

export interface ReceiptFilter {
  order_id?: number;
  entry_id?: number;
  retirement_id?: string;
}

const keyOf = (f: ReceiptFilter) => `receipts:${f.order_id ?? ''}:${f.entry_id ?? ''}:${f.retirement_id ?? ''}`;

/** The receipts of the filter: the kept copy at once, then the server's when online. */
export function useReceipts(memId: number, filter: ReceiptFilter) {
  const online = useOnline();
  const [error, setError] = useState('');
  const key = keyOf(filter);
  const kept = useLiveQuery(async () => {
    const v = (await db.meta.get(key))?.value as { mem_id: number; list: Receipt[] } | undefined;
    return v && v.mem_id === memId ? v.list : null;
  }, [key, memId]);
  const { order_id, entry_id, retirement_id } = filter;
  const load = useCallback(async () => {
    const res = await get<Paged<Receipt>>(PATHS.receiptLists, { order_id, entry_id, retirement_id, page_size: 50 }, { quiet: true, fresh: true });
    if (res.code !== 0) {
      setError(res.msg);
      return;
    }
    await db.meta.put({ key, value: { mem_id: memId, list: res.data.list } });
  }, [key, memId, order_id, entry_id, retirement_id]);
  useLiveRefresh(load, ['fundlogs', 'orders', 'retirements'], memId > 0);
  return { list: kept, error, online };
}

/** Saves one receipt's PDF, made by the server in the app's language. */
export function downloadReceiptPdf(r: Pick<Receipt, 'id' | 'number'>): Promise<ApiResult<null>> {
  return downloadFile(PATHS.receiptPdf, { id: r.id }, `canopy-receipt-${r.number}.pdf`);
}
