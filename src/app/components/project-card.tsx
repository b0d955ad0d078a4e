import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { Project } from '../../shared/schemas/content';
import { formatSgd, pick } from '../lib/format';
import { joinBlockLabel, statusLabel, typeLabel } from '../lib/project-labels';
import './project-card.css';

export function ProjectCard({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  // A pre-sale before its selling time is taking bookings: "not started" would read as "cannot join".
  const block = project.status === 'presale' && project.join_block === 'not_started' ? null : project.join_block;
  return (
    <Link to="/pages/project/project" search={{ id: project.id }} className="project-card card" data-testid="project-card">
      <img src={project.image} alt="" width={320} height={180} loading="lazy" decoding="async" className="project-card__img" />
      <div className="project-card__body">
        <div className="project-card__top">
          <span className={`status status--${project.status}`}>{i18n._(statusLabel[project.status])}</span>
          <span className="muted project-card__std">{project.standard}</span>
        </div>
        <h3 className="project-card__name">{pick(project, 'name')}</h3>
        <p className="muted project-card__meta">
          {pick(project, 'location')} · {i18n._(typeLabel[project.type])}
        </p>
        <div className="project-card__price">
          <strong>{formatSgd(project.presale_price && project.status === 'presale' ? project.presale_price : project.price)}</strong>
          <span className="muted"> / {t`ton`}</span>
        </div>
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={project.progress} aria-label={t`Sold`}>
          <div className="progress__bar" style={{ width: `${project.progress}%` }} />
        </div>
        <div className="project-card__foot muted">
          <span>{t`${project.progress}% sold`}</span>
          {block && <span className="project-card__block">{i18n._(joinBlockLabel[block])}</span>}
        </div>
      </div>
    </Link>
  );
}
