import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDateTime, formatSgd, formatTons, formatYield, pick } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { useUserInfo } from '../../lib/user-info';
import { CycleText } from '../../components/cycle-text';
import { joinBlockLabel, statusLabel, typeLabel } from '../../lib/project-labels';
import { buybackPrice } from '../../../shared/fees';
import type { OrderLimits } from '../../../shared/schemas/order';
import type { Project } from '../../../shared/schemas/content';
import './projects.css';

// Pieces shared by the project detail (/pages/project/project) and countdown (/pages/project/info) screens.



/** The price a pre-sale books at, or the regular price. */
export function unitPrice(p: Project): number {
  return p.status === 'presale' && p.presale_price ? p.presale_price : p.price;
}



export function ProjectHero({ project, image = true }: { project: Project; image?: boolean }) {
  const { t, i18n } = useLingui();
  const name = pick(project, 'name');
  const sold = formatTons(project.total_tons - project.remaining_tons);
  const total = formatTons(project.total_tons);
  const remaining = formatTons(project.remaining_tons);
  const price = formatSgd(unitPrice(project));
  const regular = formatSgd(project.price);
  const presale = project.status === 'presale' && project.presale_price !== null;
  return (
    <div className={image ? 'project-hero' : 'project-hero project-hero--plain'}>
      {image && <img src={project.image} alt="" width={320} height={180} className="project-hero__img" fetchPriority="high" />}
      <div className="project-hero__body card">
        <div className="project-hero__top">
          <span className={`status status--${project.status}`} data-testid="project-status">
            {i18n._(statusLabel[project.status])}
          </span>
          <span className="muted">{project.standard}</span>
        </div>
        <h2 className="project-hero__name">{name}</h2>
        <p className="muted project-hero__meta">
          {pick(project, 'location')} · {i18n._(typeLabel[project.type])}
        </p>
        <p className="project-hero__price">
          <strong>{price}</strong>
          <span className="muted">
            {' '}
            / <Trans>ton</Trans>
          </span>
          {presale && (
            <span className="project-hero__regular muted">
              {' '}
              <Trans>Pre-sale price · regular price {regular}</Trans>
            </span>
          )}
        </p>
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={project.progress} aria-label={t`Sold`}>
          <div className="progress__bar" style={{ width: `${project.progress}%` }} />
        </div>
        <div className="project-hero__progress">
          <span>
            <Trans>
              {sold} of {total} sold
            </Trans>
          </span>
          <span>
            <Trans>{remaining} left</Trans>
          </span>
        </div>
      </div>
    </div>
  );
}


export function BuybackOffer({ project }: { project: Project }) {
  if (project.yield_bp <= 0) return null;
  const price = formatSgd(project.price);
  const yieldPct = formatYield(project.yield_bp);
  const offer = formatSgd(buybackPrice(project.price, project.yield_bp));
  return (
    <p className="notice buyback" data-testid="buyback-offer">
      <Trans>
        Platform buy-back offer: {price} × (1 + {yieldPct}) = <strong>{offer}</strong> per ton — an offer, not a promised return.
      </Trans>
    </p>
  );
}

type Row = [label: string, value: ReactNode];

export function FactList({ title, id, rows, note }: { title: string; id: string; rows: Row[]; note?: ReactNode }) {
  const shown = rows.filter(([, value]) => value !== '' && value !== null && value !== undefined);
  return (
    <section className="section facts-section" aria-labelledby={id}>
      <h2 className="section-title" id={id}>
        {title}
      </h2>
      <dl className="facts card">
        {shown.map(([label, value]) => (
          <div className="facts__row" key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {note && <p className="muted facts__note">{note}</p>}
    </section>
  );
}

export function OrderTerms({ project, limits }: { project: Project; limits?: OrderLimits | null }) {
  const { t } = useLingui();
  const grade = project.required_grade;
  // The caller's own room under the limits, when signed in and online (the server counts it).
  const own: [string, string][] = limits
    ? [
        [t`Your remaining this month`, formatTons(limits.monthly_left)],
        [t`Your remaining in total`, formatTons(limits.total_left)],
      ]
    : [];
  return (
    <FactList
      id="project-terms"
      title={t`Order terms`}
      rows={[
        [t`Price per ton`, formatSgd(project.price)],
        [t`Pre-sale price per ton`, project.status === 'presale' && project.presale_price ? formatSgd(project.presale_price) : ''],
        // A pre-sale sells forward tons: credits not yet issued on the registry (docs/product.md#registry-inventory).
        [t`Pre-sale credits`, project.status === 'presale' ? t`Forward tons, delivered at issuance` : ''],
        [t`Per order`, `${formatTons(project.min_tons)} – ${formatTons(project.max_tons)}`],
        [
          t`Credits arrive`,
          <Trans key="cycle">
            <CycleText project={project} /> after payment
          </Trans>,
        ],
        [t`Membership required`, grade > 0 ? `P${grade}` : t`P0 (all members)`],
        [t`Monthly limit per member`, formatTons(project.monthly_limit)],
        [t`Total limit per member`, formatTons(project.total_limit)],
        ...own,
        [t`Sales open`, formatDateTime(project.selling_time_ms)],
        [t`Sales close`, formatDateTime(project.end_time_ms)],
      ]}
      note={<Trans>Times are Singapore time (SGT).</Trans>}
    />
  );
}

export function ProjectFacts({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  return (
    <FactList
      id="project-facts"
      title={t`Project facts`}
      rows={[
        [t`Location`, pick(project, 'location')],
        [t`Type`, i18n._(typeLabel[project.type])],
        [t`Standard`, project.standard],
        [t`Registry ID`, project.registry_id],
        [t`Methodology`, project.methodology],
        [t`Vintage`, project.vintage ? String(project.vintage) : ''],
        [t`Size`, project.size_ha ? t`${project.size_ha.toLocaleString('en-US')} ha` : ''],
        [t`Company`, project.company],
      ]}
    />
  );
}

/** Plain-text bodies: paragraphs separated by blank lines. */
export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p, i) => (
          <p key={i}>{p}</p>
        ))}
    </>
  );
}

export function ProjectIntro({ project }: { project: Project }) {
  const intro = pick(project, 'intro');
  if (!intro) return null;
  return (
    <section className="section" aria-labelledby="project-intro">
      <h2 className="section-title" id="project-intro">
        <Trans>Introduction</Trans>
      </h2>
      <div className="prose project-intro">
        <Paragraphs text={intro} />
      </div>
    </section>
  );
}

/** A project in progress that can be joined offers a monthly offset of it (docs/product.md#monthly-offset). */
export function MonthlyOffset({ project }: { project: Project }) {
  if (project.status !== 'in_progress' || project.join_block) return null;
  return (
    <section className="section section--tight">
      <div className="card project-monthly">
        <p>
          <Trans>Offset every month: choose the tons and a day, and the buy is placed for you from your balance.</Trans>
        </p>
        <Link to="/pages/profile/offset" search={{ project_id: project.id }} className="btn btn--ghost btn--block" data-testid="project-offset-monthly">
          <Trans>Offset every month</Trans>
        </Link>
      </div>
    </section>
  );
}

/**
 * The primary action: buy (in progress) or book (pre-sale, while its booking window before the selling time is
 * open). Disabled, with the reason shown, when the project cannot be joined now or the device is offline.
 */
export function ProjectAction({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const { info } = useUserInfo();
  const presale = project.status === 'presale';
  const label = presale ? t`Book pre-sale` : t`Buy by the ton`;
  // A pre-sale is "not started" for buying, but that is exactly when it takes bookings.
  const block = presale && project.join_block === 'not_started' ? null : project.join_block;
  // A member below the project's grade learns it here, before the order screen (docs/product.md#roles).
  const needs = project.required_grade;
  const gradeReason = info && info.grade < needs ? t`This project needs membership P${project.required_grade}; you are P${info.grade}.` : null;
  const reason = block
    ? i18n._(joinBlockLabel[block])
    : !presale && project.status !== 'in_progress'
      ? i18n._(statusLabel[project.status])
      : presale && project.presale_price === null
        ? t`Booking is not open for this project.`
        : gradeReason
          ? gradeReason
          : !online
            ? t`You are offline. Ordering needs a connection.`
            : null;
  return (
    <div className="action-bar">
      {reason && (
        <p className="action-bar__reason" id="project-action-reason" role="status">
          {reason}
        </p>
      )}
      {gradeReason && reason === gradeReason && (
        <Link to="/pages/profile/membership" className="action-bar__link" data-testid="project-action-membership">
          <Trans>How to reach P{needs}</Trans>
        </Link>
      )}
      {reason ? (
        <button type="button" className="btn btn--block" disabled aria-describedby="project-action-reason" data-testid="project-action">
          {label}
        </button>
      ) : (
        <Link
          to={presale ? '/pages/project/dpresale' : '/pages/project/dproject'}
          search={{ id: project.id }}
          className="btn btn--block"
          data-testid="project-action"
        >
          {label}
        </Link>
      )}
    </div>
  );
}
