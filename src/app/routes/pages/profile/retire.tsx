import { createFileRoute } from '@tanstack/react-router';
import { RetirePage } from '../../../features/retire/retire-page';

export const Route = createFileRoute('/pages/profile/retire')({
  validateSearch: (search: Record<string, unknown>): { project_id?: number } => {
    const n = Number(search.project_id);
    return Number.isSafeInteger(n) && n > 0 ? { project_id: n } : {};
  },
  component: function RetireRoute() {
    const { project_id } = Route.useSearch();
    return <RetirePage projectId={project_id} />;
  },
});
