import { createFileRoute } from '@tanstack/react-router';
import { ProjectListPage } from '../../../features/projects/project-list-page';
import { validateProjectSearch, type ProjectSearch } from '../../../features/projects/project-search';

// The project tab. "[index]" keeps the literal /pages/project/index path of
// docs/product.md#screens-and-routes (a bare index.tsx would be the folder's index route, /pages/project/).
export const Route = createFileRoute('/pages/project/index')({
  validateSearch: validateProjectSearch,
  component: ProjectListRoute,
});

function ProjectListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // Filters replace the history entry, so Back leaves the tab rather than stepping through every keystroke.
  const onSearch = (next: ProjectSearch) => void navigate({ search: next, replace: true });
  return <ProjectListPage search={search} onSearch={onSearch} />;
}
