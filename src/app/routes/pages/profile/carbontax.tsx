import { createFileRoute } from '@tanstack/react-router';
import { CarbonTaxPage } from '../../../features/carbontax/cap-page';

/** ?year= opens that compliance year (the retire screens link here when its emissions are not entered). */
export const Route = createFileRoute('/pages/profile/carbontax')({
  validateSearch: (search: Record<string, unknown>): { year?: number } => {
    const year = Number(search.year);
    return Number.isInteger(year) && year >= 2024 && year <= 2100 ? { year } : {};
  },
  component: function CarbonTaxRoute() {
    const { year } = Route.useSearch();
    return <CarbonTaxPage initialYear={year} />;
  },
});
