import { Trans, useLingui } from '@lingui/react/macro';
import { LanguageToggle } from '../../components/language-toggle';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatDateTime, formatShortMonth, formatTons, pick } from '../../lib/format';
import type { Transparency, TransparencyProject } from '../../../shared/schemas/retire';
import { useTransparency } from './api';
import './retire.css';

// /transparency: public. Per project issued, sold, booked, retired and remaining tons with a bar, platform
// totals, retired per month (inline SVG with the same figures as text), and the ledger check. Refreshed
// live (the socket's invalidations, and every 15 s without a socket); kept in Dexie for offline reading.

export function TransparencyPage() {
  const { t } = useLingui();
  const { data, savedAt, online } = useTransparency();
  return (
    <div className="page transparency-page">
      {/* The app's own bar: a way into the app from a shared link (back, or home without history) and the
          language pill where every other screen has its tools. */}
      <NavBar title={t`Transparency`} right={<LanguageToggle />} />
      <OfflineBar />
      <section className="section">
        <p className="muted transparency__lead">
          <Trans>Every carbon credit on Canopy, per project: issued, sold, booked in pre-sales, retired and remaining, next to a ledger that must sum to zero.</Trans>
        </p>
        {!online && savedAt && (
          <p className="muted">
            <Trans>Offline: figures as of {formatDateTime(savedAt)}.</Trans>
          </p>
        )}
      </section>
      {!data ? (
        <p className="empty">{online ? t`Loading…` : t`These figures are not saved on this device yet. Connect to the internet to see them.`}</p>
      ) : (
        <>
          <Totals data={data} />
          <Ledger data={data} />
          <Monthly data={data} />
          <section className="section" aria-labelledby="tr-projects">
            <h2 className="section-title" id="tr-projects">
              <Trans>By project</Trans>
            </h2>
            <Legend />
            <ul className="tr-projects">
              {data.projects.map((p) => (
                <ProjectRow key={p.id} p={p} />
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

function Totals({ data }: { data: Transparency }) {
  const { t } = useLingui();
  const items: Array<[string, number, string]> = [
    [t`Issued`, data.totals.issued, 'issued'],
    [t`Sold`, data.totals.sold, 'sold'],
    [t`Booked`, data.totals.booked, 'booked'],
    [t`Retired`, data.totals.retired, 'retired'],
    [t`Remaining`, data.totals.remaining, 'remaining'],
    [t`Held on registries`, data.totals.held, 'held'],
    [t`Retired and cancelled`, data.totals.cancelled, 'cancelled'],
    [t`Retired, waiting for the registry`, data.totals.waiting, 'waiting'],
  ];
  return (
    <section className="section" aria-labelledby="tr-totals">
      <h2 className="section-title" id="tr-totals">
        <Trans>Platform totals</Trans>
      </h2>
      <dl className="tr-totals card">
        {items.map(([label, n, key]) => (
          <div key={key} className="tr-totals__item">
            <dt>{label}</dt>
            <dd data-testid={`total-${key}`}>{formatTons(n)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Ledger({ data }: { data: Transparency }) {
  const at = formatDateTime(data.ledger.checked_at_ms);
  return (
    <section className="section" aria-labelledby="tr-ledger">
      <h2 className="section-title" id="tr-ledger">
        <Trans>Ledger check</Trans>
      </h2>
      <p className={`notice ${data.ledger.ok ? 'tr-ledger--ok' : 'notice--danger'}`} data-testid="ledger-check">
        {data.ledger.ok ? (
          <Trans>Passed: every balance equals its history and all accounts sum to zero; retired tons match their serial numbers. Last run {at} (SGT).</Trans>
        ) : (
          <Trans>Failed: the last check found a difference. Last run {at} (SGT).</Trans>
        )}
      </p>
    </section>
  );
}

function Monthly({ data }: { data: Transparency }) {
  const { t } = useLingui();
  const max = Math.max(1, ...data.monthly.map((m) => m.tons));
  const W = 340;
  const H = 120;
  const bw = W / data.monthly.length;
  const summary = data.monthly.map((m) => `${m.month}: ${formatTons(m.tons)}`).join(', ');
  const none = data.monthly.every((m) => m.tons === 0);
  return (
    <section className="section" aria-labelledby="tr-monthly">
      <h2 className="section-title" id="tr-monthly">
        <Trans>Retired per month</Trans>
      </h2>
      <figure className="tr-chart card">
        {none && (
          <p className="tr-chart__none" data-testid="tr-monthly-none">
            <Trans>None retired yet.</Trans>
          </p>
        )}
        <svg viewBox={`0 0 ${W} ${H + 32}`} role="img" aria-labelledby="tr-chart-desc" className="tr-chart__svg">
          <desc id="tr-chart-desc">{t`Tons retired per month, last 12 months: ${summary}`}</desc>
          {data.monthly.map((m, i) => {
            const h = Math.round((m.tons / max) * (H - 14));
            return (
              <g key={m.month}>
                <rect x={i * bw + 3} y={H - h} width={bw - 6} height={Math.max(h, m.tons > 0 ? 2 : 0)} rx="2" className="tr-chart__bar" />
                {m.tons > 0 && (
                  <text x={i * bw + bw / 2} y={H - h - 3} textAnchor="middle" className="tr-chart__value">
                    {m.tons}
                  </text>
                )}
                {/* Each bar names its month; the year shows under the first bar and under every January,
                    so the axis reads as dates, not bare numbers. */}
                <text x={i * bw + bw / 2} y={H + 13} textAnchor="middle" className="tr-chart__label">
                  {formatShortMonth(m.month)}
                </text>
                {(i === 0 || m.month.endsWith('-01')) && (
                  <text x={i * bw + bw / 2} y={H + 27} textAnchor="middle" className="tr-chart__label tr-chart__year">
                    {m.month.slice(0, 4)}
                  </text>
                )}
              </g>
            );
          })}
          <line x1="0" x2={W} y1={H} y2={H} className="tr-chart__axis" />
        </svg>
        <figcaption className="sr-only">{summary}</figcaption>
      </figure>
      <p className="muted" data-testid="retired-this-month">
        <Trans>This month: {formatTons(data.monthly.at(-1)?.tons ?? 0)} retired.</Trans>
      </p>
    </section>
  );
}

function Legend() {
  return (
    <p className="tr-legend muted" aria-hidden="true">
      <span className="tr-key tr-key--retired" /> <Trans>retired</Trans> <span className="tr-key tr-key--sold" /> <Trans>sold</Trans>{' '}
      <span className="tr-key tr-key--booked" /> <Trans>booked</Trans> <span className="tr-key tr-key--remaining" /> <Trans>remaining</Trans>
    </p>
  );
}

function ProjectRow({ p }: { p: TransparencyProject }) {
  const pct = (n: number) => `${p.issued > 0 ? (n / p.issued) * 100 : 0}%`;
  const soldNotRetired = Math.max(0, p.sold - p.retired);
  const issued = formatTons(p.issued);
  const sold = formatTons(p.sold);
  const booked = formatTons(p.booked);
  const retired = formatTons(p.retired);
  const remaining = formatTons(p.remaining);
  return (
    <li className="tr-project card" data-testid="tr-project" data-project-id={p.id}>
      <div className="tr-project__head">
        <strong>{pick(p, 'name')}</strong>
        <span className="muted">
          {p.registry} {p.registry_id} · {p.vintage} · {pick(p, 'country')}
        </span>
      </div>
      <div className="tr-bar" aria-hidden="true">
        <span className="tr-bar__retired" style={{ width: pct(p.retired) }} />
        <span className="tr-bar__sold" style={{ width: pct(soldNotRetired) }} />
        <span className="tr-bar__booked" style={{ width: pct(p.booked) }} />
      </div>
      <p className="tr-project__figures">
        <Trans>
          Issued {issued} · sold {sold} · booked {booked} · <span data-testid="tr-retired">retired {retired}</span> · remaining {remaining}
        </Trans>
      </p>
      <RegistryFigures p={p} />
    </li>
  );
}

/** What the registry shows of a project (docs/product.md#registry-cancellation): the units its account holds,
 *  the retired tons cancelled there, and those still waiting to be cancelled. A copy kept before these
 *  figures existed shows none. */
function RegistryFigures({ p }: { p: TransparencyProject }) {
  if (p.held === undefined) return null;
  const held = formatTons(p.held);
  const cancelled = formatTons(p.cancelled);
  const waiting = formatTons(p.waiting);
  return (
    <p className="tr-project__figures tr-project__registry" data-testid="tr-registry">
      <Trans>
        On the registry: held {held} · retired and cancelled {cancelled} · retired, waiting to be cancelled {waiting}
      </Trans>
    </p>
  );
}
