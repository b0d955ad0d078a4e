import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { serverNow } from '../../lib/server-time';
import { formatDateTime, formatSgd, formatTons } from '../../lib/format';
import { useProject } from '../../lib/project';
import { ProjectLoadState } from '../../components/project-load-state';
import { SaleCountdown } from '../../components/sale-countdown';
import { FactList, ProjectAction, ProjectHero, ProjectIntro } from './project-parts';
import { CycleText } from '../../components/cycle-text';
import './projects.css';

// /pages/project/info: the countdown to a project's selling time, with the facts a buyer decides on.
export function ProjectCountdownPage({ id }: { id: number }) {
  const { t } = useLingui();
  const { load, refresh } = useProject(id);
  if (load.state !== 'ready')
    return (
      <div className="page">
        <NavBar title={t`Sale countdown`} />
        <OfflineBar />
        <ProjectLoadState load={load} />
      </div>
    );
  const project = load.project;
  const upcoming = project.selling_time_ms > serverNow() && project.status !== 'closed';
  const opened = formatDateTime(project.selling_time_ms);
  return (
    <div className="page project-detail">
      <NavBar title={t`Sale countdown`} />
      <OfflineBar />
      <div className="section section--tight countdown-top">
        {upcoming ? (
          <SaleCountdown project={project} onDone={() => void refresh()} large />
        ) : (
          <section className="sale-countdown sale-countdown--large card" aria-labelledby="sale-open-title">
            <h2 id="sale-open-title" className="sale-countdown__title">
              {project.join_block === 'ended' ? <Trans>This project has ended</Trans> : <Trans>The sale is open</Trans>}
            </h2>
            <p className="muted sale-countdown__when">
              <Trans>Opened {opened} (Singapore time)</Trans>
            </p>
          </section>
        )}
      </div>
      <ProjectHero project={project} image={false} />
      <FactList
        id="project-key-facts"
        title={t`Key facts`}
        rows={[
          [t`Price per ton`, formatSgd(project.price)],
          [t`Pre-sale price per ton`, project.status === 'presale' && project.presale_price ? formatSgd(project.presale_price) : ''],
          [t`Per order`, `${formatTons(project.min_tons)} – ${formatTons(project.max_tons)}`],
          [
            t`Credits arrive`,
            <Trans key="cycle">
              <CycleText project={project} /> after payment
            </Trans>,
          ],
          [t`Membership required`, project.required_grade > 0 ? `P${project.required_grade}` : t`P0 (all members)`],
          [t`Available`, formatTons(project.remaining_tons)],
        ]}
      />
      <ProjectIntro project={project} />
      <div className="section section--tight">
        <Link to="/pages/project/project" search={{ id: project.id }} className="btn btn--ghost btn--block">
          <Trans>All project details</Trans>
        </Link>
      </div>
      <ProjectAction project={project} />
    </div>
  );
}
