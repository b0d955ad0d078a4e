import { createFileRoute } from '@tanstack/react-router';
import { ResultPage } from '../../../features/footprint/result-page';

// A footprint result kept on this device (?id= its local id; none: the newest).
export const Route = createFileRoute('/pages/profile/result')({
  validateSearch: (raw: Record<string, unknown>): { id?: number } => {
    const id = Number(raw.id);
    return Number.isSafeInteger(id) && id > 0 ? { id } : {};
  },
  component: function ResultRoute() {
    const { id } = Route.useSearch();
    return <ResultPage id={id ?? 0} />;
  },
});
