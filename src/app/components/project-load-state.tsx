import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import type { ProjectLoad } from '../lib/project';
import { EmptyState, LoadingState } from './empty-state';

/** What a project screen shows until its project is ready: a spinner, or why it cannot be shown. */
export function ProjectLoadState({ load }: { load: Exclude<ProjectLoad, { state: 'ready' }> }) {
  if (load.state === 'loading') return <LoadingState />;
  return (
    <EmptyState
      action={
        <Link to="/pages/project/index" className="btn btn--ghost">
          <Trans>All projects</Trans>
        </Link>
      }
    >
      {load.state === 'unavailable' ? (
        <Trans>This project is not saved on this device. Connect to the internet to see it.</Trans>
      ) : (
        <Trans>This project is not available.</Trans>
      )}
    </EmptyState>
  );
}
