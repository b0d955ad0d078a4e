import { createFileRoute } from '@tanstack/react-router';
import { ReceiptsPage } from '../../../features/receipts/receipts-page';
import type { ReceiptFilter } from '../../../features/receipts/api';

// Receipts (docs/product.md#receipts): those of an order (?order_id=), a fund-log entry (?entry_id=) or a
// retirement (?retirement_id=); without one, every receipt of the member.
function parseReceiptSearch(raw: Record<string, unknown>): ReceiptFilter {
  const id = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && /^[1-9][0-9]{0,15}$/.test(v)) ? Number(v) : undefined);
  const order_id = id(raw.order_id);
  const entry_id = id(raw.entry_id);
  const retirement = typeof raw.retirement_id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(raw.retirement_id) ? raw.retirement_id : undefined;
  return { ...(order_id ? { order_id } : {}), ...(entry_id ? { entry_id } : {}), ...(retirement ? { retirement_id: retirement } : {}) };
}

export const Route = createFileRoute('/pages/profile/receipts')({
  validateSearch: parseReceiptSearch,
  component: function ReceiptsRoute() {
    return <ReceiptsPage filter={Route.useSearch()} />;
  },
});
