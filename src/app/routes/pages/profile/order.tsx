import { createFileRoute } from '@tanstack/react-router';
import { OrdersPage } from '../../../features/orders/orders-page';
import { ORDER_TABS, type OrderTab } from '../../../features/orders/order-tabs';

// ?tab= keeps the chosen status tab in the URL (a reload or a shared link shows the same list).
function parseOrderSearch(raw: Record<string, unknown>): { tab?: OrderTab } {
  const tab = raw.tab;
  return typeof tab === 'string' && (ORDER_TABS as readonly string[]).includes(tab) && tab !== 'all' ? { tab: tab as OrderTab } : {};
}

export const Route = createFileRoute('/pages/profile/order')({
  validateSearch: parseOrderSearch,
  component: function OrderRoute() {
    const { tab = 'all' } = Route.useSearch();
    const navigate = Route.useNavigate();
    return <OrdersPage tab={tab} onTab={(next) => void navigate({ search: next === 'all' ? {} : { tab: next }, replace: true })} />;
  },
});
