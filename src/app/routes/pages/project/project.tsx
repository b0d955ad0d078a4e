import { createFileRoute } from '@tanstack/react-router';
import { ProjectDetailPage } from '../../../features/projects/project-detail-page';
import { validateIdSearch } from '../../../features/projects/project-search';

export const Route = createFileRoute('/pages/project/project')({
  validateSearch: validateIdSearch,
  component: ProjectDetailRoute,
});

function ProjectDetailRoute() {
  const { id } = Route.useSearch();
  return <ProjectDetailPage id={id} />;
}
