import { createFileRoute } from '@tanstack/react-router';
import { PresalePage } from '../../../features/orders/presale-page';
import { validateIdSearch } from '../../../features/projects/project-search';

export const Route = createFileRoute('/pages/project/dpresale')({
  validateSearch: validateIdSearch,
  component: function PresaleRoute() {
    const { id } = Route.useSearch();
    return <PresalePage id={id} />;
  },
});
