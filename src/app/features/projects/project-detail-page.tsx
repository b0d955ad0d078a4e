import { memo, useDeferredValue } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { serverNow } from '../../lib/server-time';
import { useSession } from '../../lib/storage';
import { useOnline } from '../../lib/online';
import { useLimits } from '../../lib/order-limits';
import { useProject } from '../../lib/project';
import { ProjectLoadState } from '../../components/project-load-state';
import { SaleCountdown } from '../../components/sale-countdown';
import { BuybackOffer, MonthlyOffset, OrderTerms, ProjectAction, ProjectFacts, ProjectHero, ProjectIntro } from './project-parts';
import { ProjectIcc } from './project-icc';
import type { Project } from '../../../shared/schemas/content';
import type { OrderLimits } from '../../../shared/schemas/order';
import './projects.css';

export function ProjectDetailPage({ id }: { id: number }) {
  const { t } = useLingui();
  const { load, refresh } = useProject(id);
  const { isLogin } = useSession();
  const online = useOnline();
  const { limits } = useLimits(id, isLogin && online);
  // The project's sections are drawn from a deferred copy: when the project arrives (the network's answer
  // written to the store), React draws them in slices it can interrupt rather than in one long task, and
  // the bar and the loading state stay responsive meanwhile (Total Blocking Time, bench/lighthouse.ts).
  const project = useDeferredValue(load.state === 'ready' ? load.project : null);
  return (
    <div className="page project-detail">
      <NavBar title={t`Project details`} />
      <OfflineBar />
      {project ? <ProjectSections project={project} limits={isLogin ? limits : null} refresh={refresh} /> : load.state !== 'ready' ? <ProjectLoadState load={load} /> : null}
    </div>
  );
}

const ProjectSections = memo(function ProjectSections({ project, limits, refresh }: { project: Project; limits: OrderLimits | null; refresh: () => Promise<void> }) {
  return (
    <>
      <ProjectHero project={project} />
      {project.selling_time_ms > serverNow() && project.status !== 'closed' && (
        <div className="section section--tight">
          <SaleCountdown project={project} onDone={() => void refresh()}>
            <Link to="/pages/project/info" search={{ id: project.id }} className="sale-countdown__link">
              <Trans>Open the countdown</Trans>
            </Link>
          </SaleCountdown>
        </div>
      )}
      <div className="section section--tight">
        <BuybackOffer project={project} />
      </div>
      <OrderTerms project={project} limits={limits} />
      <ProjectFacts project={project} />
      <ProjectIcc project={project} />
      <ProjectIntro project={project} />
      <MonthlyOffset project={project} />
      <ProjectAction project={project} />
    </>
  );
});
