import { createFileRoute } from '@tanstack/react-router';
import { BuyPage } from '../../../features/orders/buy-page';
import { validateIdSearch } from '../../../features/projects/project-search';

export const Route = createFileRoute('/pages/project/dproject')({
  validateSearch: validateIdSearch,
  component: function BuyRoute() {
    const { id } = Route.useSearch();
    return <BuyPage id={id} />;
  },
});
