import { createFileRoute } from '@tanstack/react-router';
import { BuyPage } from '../../../features/orders/buy-page';
import { validateIdSearch } from '../../../features/projects/project-search';

export const Route = createFileRoute('/pages/project/dproject')({
  // ?tons= starts the quantity (the footprint's "Offset it"); anything but a whole positive number is dropped.
  validateSearch: (raw: Record<string, unknown>): { id: number; tons?: number } => {
    const tons = Number(raw.tons);
    return { ...validateIdSearch(raw), ...(Number.isSafeInteger(tons) && tons > 0 ? { tons } : {}) };
  },
  component: function BuyRoute() {
    const { id, tons } = Route.useSearch();
    return <BuyPage id={id} tons={tons} />;
  },
});
