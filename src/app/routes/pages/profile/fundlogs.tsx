import { createFileRoute } from '@tanstack/react-router';
import { FundLogsPage } from '../../../features/wallet/fund-logs-page';

interface FundLogsSearch {
  /** One fund log kind (topup, withdrawal_apply, ...); absent for all. */
  kind?: string;
}

// Fund logs (docs/product.md#screens-and-routes): every balance movement, newest first, filterable by kind
// (kept in the URL so a reload keeps the filter).
export const Route = createFileRoute('/pages/profile/fundlogs')({
  validateSearch: (search: Record<string, unknown>): FundLogsSearch =>
    typeof search.kind === 'string' && /^[a-z_]{1,40}$/.test(search.kind) ? { kind: search.kind } : {},
  component: function FundLogsRoute() {
    const { kind } = Route.useSearch();
    return <FundLogsPage kind={kind ?? ''} />;
  },
});
