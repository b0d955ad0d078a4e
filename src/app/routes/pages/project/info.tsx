import { createFileRoute } from '@tanstack/react-router';
import { ProjectCountdownPage } from '../../../features/projects/project-countdown-page';
import { validateIdSearch } from '../../../features/projects/project-search';

// docs/product.md#screens-and-routes: "info (countdown)": the countdown to a project's selling time, with its
// key facts.
export const Route = createFileRoute('/pages/project/info')({
  validateSearch: validateIdSearch,
  component: ProjectCountdownRoute,
});

function ProjectCountdownRoute() {
  const { id } = Route.useSearch();
  return <ProjectCountdownPage id={id} />;
}
