import { createFileRoute } from '@tanstack/react-router';
import { SellPage } from '../../../features/orders/sell-page';
import { validateIdSearch } from '../../../features/projects/project-search';

export const Route = createFileRoute('/pages/project/dsell')({
  validateSearch: validateIdSearch,
  component: function SellRoute() {
    const { id } = Route.useSearch();
    return <SellPage id={id} />;
  },
});
