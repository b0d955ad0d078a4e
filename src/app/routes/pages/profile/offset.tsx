import { createFileRoute } from '@tanstack/react-router';
import { SubscribePage } from '../../../features/offset/subscribe-page';

const positive = (value: unknown): number | undefined => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

export const Route = createFileRoute('/pages/profile/offset')({
  validateSearch: (search: Record<string, unknown>): { project_id?: number; tons?: number; id?: number } => {
    const out: { project_id?: number; tons?: number; id?: number } = {};
    const projectId = positive(search.project_id);
    const tons = positive(search.tons);
    const id = positive(search.id);
    if (projectId) out.project_id = projectId;
    if (tons) out.tons = tons;
    if (id) out.id = id;
    return out;
  },
  component: function OffsetRoute() {
    const { project_id, tons, id } = Route.useSearch();
    return <SubscribePage projectId={project_id} tons={tons} planId={id} />;
  },
});
