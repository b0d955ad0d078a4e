import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../lib/db';
import { refreshProject } from '../../lib/sync';
import { useOnline } from '../../lib/online';
import { formatDateTime, formatSgd, formatTons, pick } from '../../lib/format';
import { Countdown } from '../../components/countdown';
import type { OrderLimits } from '../../../shared/schemas/order';
import type { Project } from '../../../shared/schemas/content';
import { joinBlockLabel, statusLabel, typeLabel } from './project-labels';
import './projects.css';

// Pieces shared by the project detail (/pages/project/project) and countdown (/pages/project/info) screens.

export type ProjectLoad =
  | { state: 'loading' }
  | { state: 'ready'; project: Project }
  | { state: 'missing' } // the server does not show it (or the id is not a project)
  | { state: 'unavailable' }; // offline and never cached

/** One project from Dexie, refreshed from the API on open, on reconnect and on demand. */
export function useProject(id: number): { load: ProjectLoad; refresh: () => Promise<void> } {
  const online = useOnline();
  // null = not in the cache; undefined = the cache has not answered yet.
  const cached = useLiveQuery(() => (id ? db.projects.get(id).then((p) => p ?? null) : null), [id]);
  const [fetched, setFetched] = useState<{ id: number; ok: boolean } | null>(null);
  const refresh = useCallback(async () => {
    if (!id) return;
    const p = await refreshProject(id);
    setFetched({ id, ok: p !== null });
  }, [id]);
  useEffect(() => {
    if (online) void refresh();
  }, [refresh, online]);

  let load: ProjectLoad;
  if (cached) load = { state: 'ready', project: cached };
  else if (!id) load = { state: 'missing' };
  else if (cached === undefined) load = { state: 'loading' };
  else if (!online) load = { state: 'unavailable' };
  else if (fetched?.id === id && !fetched.ok) load = { state: 'missing' };
  else load = { state: 'loading' };
  return { load, refresh };
}

export function ProjectLoadState({ load }: { load: Exclude<ProjectLoad, { state: 'ready' }> }) {
  if (load.state === 'loading')
    return (
      <div className="pending" role="status">
        <div className="spinner" aria-hidden="true" />
        <span className="sr-only">
          <Trans>Loading…</Trans>
        </span>
      </div>
    );
  return (
    <div className="empty">
      <p>
        {load.state === 'unavailable' ? (
          <Trans>This project is not saved on this device. Connect to the internet to see it.</Trans>
        ) : (
          <Trans>This project is not available.</Trans>
        )}
      </p>
      <Link to="/pages/project/index" className="btn btn--ghost">
        <Trans>All projects</Trans>
      </Link>
    </div>
  );
}

/** The price a pre-sale books at, or the regular price. */
export function unitPrice(p: Project): number {
  return p.status === 'presale' && p.presale_price ? p.presale_price : p.price;
}

/** "6%", "6.5%", "6.25%" from basis points, without floating-point noise. */
export function formatYield(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const frac = String(bp % 100).padStart(2, '0').replace(/0+$/, '');
  return `${whole}${frac ? `.${frac}` : ''}%`;
}

/** DECISIONS "Projects": the platform's standing buy-back price, unit price x (1 + yield), in integer cents. */
export function buybackPrice(p: Project): number {
  return Math.round((p.price * (10_000 + p.yield_bp)) / 10_000);
}

export function CycleText({ project }: { project: Project }) {
  const n = project.cycle_value;
  if (project.cycle_unit === 'minutes') return <Plural value={n} one="# minute" other="# minutes" />;
  if (project.cycle_unit === 'hours') return <Plural value={n} one="# hour" other="# hours" />;
  return <Plural value={n} one="# day" other="# days" />;
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
          {project.location} · {i18n._(typeLabel[project.type])}
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

/** The countdown to the selling time while it is ahead; refreshes the project when it reaches zero. */
export function SaleCountdown({ project, onDone, large = false, children }: { project: Project; onDone: () => void; large?: boolean; children?: ReactNode }) {
  const opens = formatDateTime(project.selling_time_ms);
  return (
    <section className={large ? 'sale-countdown sale-countdown--large card' : 'sale-countdown card'} aria-labelledby="sale-countdown-title">
      <h2 id="sale-countdown-title" className="sale-countdown__title">
        {project.status === 'presale' ? <Trans>Pre-sale opens in</Trans> : <Trans>Sale opens in</Trans>}
      </h2>
      <Countdown to={project.selling_time_ms} onDone={onDone} className="sale-countdown__timer" />
      <p className="muted sale-countdown__when">
        <Trans>Opens {opens} (Singapore time)</Trans>
      </p>
      {children}
    </section>
  );
}

export function BuybackOffer({ project }: { project: Project }) {
  if (project.yield_bp <= 0) return null;
  const price = formatSgd(project.price);
  const yieldPct = formatYield(project.yield_bp);
  const offer = formatSgd(buybackPrice(project));
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
        [t`Per order`, `${formatTons(project.min_tons)} – ${formatTons(project.max_tons)}`],
        [t`Deadline cycle`, <CycleText key="cycle" project={project} />],
        [t`Membership required`, grade > 0 ? `P${grade}` : t`P0 (all members)`],
        [t`Monthly limit per member`, formatTons(project.monthly_limit)],
        [t`Total limit per member`, formatTons(project.total_limit)],
        ...own,
        [t`Selling time`, formatDateTime(project.selling_time_ms)],
        [t`End time`, formatDateTime(project.end_time_ms)],
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
        [t`Location`, project.location],
        [t`Type`, i18n._(typeLabel[project.type])],
        [t`Standard`, project.standard],
        [t`Registry ID`, project.registry_id],
        [t`Methodology`, project.methodology],
        [t`Vintage`, project.vintage ? String(project.vintage) : ''],
        [t`Size`, project.size_ha ? `${project.size_ha.toLocaleString('en-US')} ha` : ''],
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

/**
 * The primary action: buy (in progress) or book (pre-sale, while its booking window before the selling time is
 * open). Disabled, with the reason shown, when the project cannot be joined now or the device is offline.
 */
export function ProjectAction({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const presale = project.status === 'presale';
  const label = presale ? t`Book pre-sale` : t`Buy by the ton`;
  // A pre-sale is "not started" for buying, but that is exactly when it takes bookings.
  const block = presale && project.join_block === 'not_started' ? null : project.join_block;
  const reason = block
    ? i18n._(joinBlockLabel[block])
    : !presale && project.status !== 'in_progress'
      ? i18n._(statusLabel[project.status])
      : presale && project.presale_price === null
        ? t`Booking is not open for this project.`
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
