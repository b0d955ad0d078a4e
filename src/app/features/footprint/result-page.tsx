import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { WrapSelect } from '../../components/forms/wrap-select';
import { EmptyState, LoadingState } from '../../components/empty-state';
import type { LocalFootprint } from '../../lib/db';
import { refreshProjects } from '../../lib/sync';
import { cachedProjects } from '../../lib/cached-projects';
import { formatDateTime, formatTons, pick } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/storage';
import { FOOTPRINT_FACTORS, tonsToOffset } from '../../../shared/footprint/compute';
import { suggestedMonthlyTons } from '../../../shared/offset';
import { FOOTPRINT_CATEGORIES } from '../../../shared/schemas/footprint';
import { FootprintChart } from './footprint-chart';
import { categoryColour, categoryLabel, tonnes, tonnesWithUnit } from './labels';
import { saveToAccount, useResult, useResults } from './store';
import './footprint.css';

// The result of the questionnaire (docs/product.md#carbon-footprint): the total, the breakdown (chart and
// table), the comparison with Singapore's per-person average with its source, "Offset it" with a project, and
// the past results kept on this device. ?id= is the local result; without it, the newest.

const AVERAGE = FOOTPRINT_FACTORS.factors.sg_average;

export function ResultPage({ id }: { id: number }) {
  const { t } = useLingui();
  const { login } = useSession();
  const results = useResults(login.mem_id);
  const byId = useResult(id);
  const row = id > 0 ? byId : results === undefined ? undefined : (results[0] ?? null);
  const online = useOnline();

  // A member's results reach the account when the app is online (each with its own Idempotency-Key).
  useEffect(() => {
    if (login.mem_id > 0 && online) void saveToAccount(login.mem_id).catch(() => undefined);
  }, [login.mem_id, online]);

  return (
    <div className="page fp-page">
      <NavBar title={t`Your footprint`} />
      {row === undefined ? (
        <LoadingState />
      ) : row === null ? (
        <EmptyState
          testId="footprint-empty"
          action={
            <Link to="/pages/profile/footprint" className="btn">
              <Trans>Calculate your footprint</Trans>
            </Link>
          }
        >
          <Trans>No footprint calculated on this device yet.</Trans>
        </EmptyState>
      ) : (
        <Result row={row} signedIn={login.mem_id > 0} />
      )}
      {results && results.length > 1 && <History rows={results} current={row?.id} />}
    </div>
  );
}

function Result({ row, signedIn }: { row: LocalFootprint; signedIn: boolean }) {
  const { i18n } = useLingui();
  const r = row.result;
  const percent = Math.round(r.ratio_to_sg_average * 100);
  const average = AVERAGE.value.toFixed(1);
  const total = r.total_tonnes.toFixed(1);
  const year = AVERAGE.year;
  return (
    <>
      <section className="section" aria-labelledby="fp-total">
        <div className="card fp-total">
          <h2 id="fp-total" className="fp-total__label">
            <Trans>Your carbon footprint</Trans>
          </h2>
          <p className="fp-total__value" data-testid="footprint-total">
            <strong>{total}</strong>
            <Trans>tons CO₂e a year</Trans>
          </p>
          <p className="fp-total__meta muted">{formatDateTime(row.created_at_ms)}</p>
          <SaveState row={row} signedIn={signedIn} />
        </div>
      </section>

      <section className="section fp-section" aria-labelledby="fp-breakdown">
        <h2 id="fp-breakdown" className="section-title">
          <Trans>By category</Trans>
        </h2>
        <div className="card fp-card">
          <FootprintChart breakdown={r.breakdown} />
          <table className="fp-table" data-testid="footprint-table">
            <caption className="sr-only">
              <Trans>Your footprint by category, tons CO₂e a year</Trans>
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Category</Trans>
                </th>
                <th scope="col" className="fp-table__num">
                  <Trans>Tons a year</Trans>
                </th>
                <th scope="col" className="fp-table__num">
                  <Trans>Share</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {FOOTPRINT_CATEGORIES.map((c) => (
                <tr key={c}>
                  <th scope="row">
                    <span className="fp-swatch" style={{ background: categoryColour[c] }} aria-hidden="true" />
                    {i18n._(categoryLabel[c])}
                  </th>
                  <td className="fp-table__num">{tonnes(r.breakdown[c])}</td>
                  <td className="fp-table__num">{r.total_kg > 0 ? Math.round((r.breakdown[c] / r.total_kg) * 100) : 0}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="section fp-section" aria-labelledby="fp-compare">
        <h2 id="fp-compare" className="section-title">
          <Trans>Compared with Singapore</Trans>
        </h2>
        <div className="card fp-card" data-testid="footprint-comparison">
          <p className="fp-compare__line">
            {percent <= 100 ? (
              <Trans>
                That is {percent}% of Singapore's average of {average} tons per person a year.
              </Trans>
            ) : (
              <Trans>
                That is {percent}% of Singapore's average of {average} tons per person a year: above it.
              </Trans>
            )}
          </p>
          <div className="fp-compare__bars" aria-hidden="true">
            <span className="fp-compare__name">
              <Trans>You</Trans>
            </span>
            <div className="fp-compare__bar" style={{ width: `${Math.min(100, (r.total_kg / Math.max(r.total_kg, r.sg_average_kg)) * 100)}%` }} />
            <span className="fp-compare__name">
              <Trans>Singapore average</Trans>
            </span>
            <div className="fp-compare__bar fp-compare__bar--avg" style={{ width: `${Math.min(100, (r.sg_average_kg / Math.max(r.total_kg, r.sg_average_kg)) * 100)}%` }} />
          </div>
          <p className="fp-source muted">
            {/* The factor file's source line is English: the note names the source in the reader's language. */}
            <Trans>Source: National Climate Change Secretariat (NCCS), Singapore's greenhouse gas emissions in {year} divided by its population that year.</Trans>{' '}
            <a href={AVERAGE.url} target="_blank" rel="noopener noreferrer">
              nccs.gov.sg
            </a>
          </p>
          <p className="fp-source muted">
            <Trans>
              The national figure counts emissions made in Singapore, including industry that exports, and leaves out imported goods and international flights, so the comparison is a rough guide.
            </Trans>
          </p>
        </div>
      </section>

      <Offset totalKg={r.total_kg} />

      <div className="section">
        <Link to="/pages/profile/footprint" className="btn btn--ghost btn--block">
          <Trans>Calculate again</Trans>
        </Link>
      </div>
    </>
  );
}

function SaveState({ row, signedIn }: { row: LocalFootprint; signedIn: boolean }) {
  if (!signedIn)
    return (
      <p className="fp-save muted">
        <Trans>Kept on this device.</Trans>{' '}
        <Link to="/pages/login/index">
          <Trans>Log in to keep your results in your account.</Trans>
        </Link>
      </p>
    );
  return (
    <p className="fp-save muted" data-testid="footprint-save-state">
      {row.server_id ? <Trans>Saved to your account.</Trans> : row.server_id === 0 ? <Trans>Kept on this device.</Trans> : <Trans>Kept on this device; saved to your account when you are online.</Trans>}
    </p>
  );
}

function Offset({ totalKg }: { totalKg: number }) {
  const { t } = useLingui();
  const projects = useLiveQuery(() => cachedProjects({ status: 'in_progress' }), []);
  const [chosen, setChosen] = useState(0);
  const [asked, setAsked] = useState(false);
  const online = useOnline();
  useEffect(() => {
    void refreshProjects({ status: 'in_progress' })
      .catch(() => undefined)
      .finally(() => setAsked(true));
  }, []);
  const project = projects?.find((p) => p.id === chosen) ?? projects?.[0];
  const tons = project ? tonsToOffset(totalKg, project) : 0;
  const needed = Math.ceil(Math.max(0, totalKg) / 1000);
  const monthly = suggestedMonthlyTons(totalKg);
  return (
    <section className="section fp-section" aria-labelledby="fp-offset">
      <h2 id="fp-offset" className="section-title">
        <Trans>Offset it</Trans>
      </h2>
      <div className="card fp-card">
        {!projects || (!projects.length && !asked) ? (
          <LoadingState />
        ) : !project ? (
          <p className="muted">
            {online ? <Trans>No project is selling right now. Check the project tab later.</Trans> : <Trans>The projects you can buy show here when you are online.</Trans>}
          </p>
        ) : (
          <>
            <div className="field">
              <label className="field__label" htmlFor="fp-project">
                <Trans>Project</Trans>
              </label>
              <WrapSelect shown={pick(project, 'name')} id="fp-project" value={project.id} onChange={(e) => setChosen(Number(e.target.value))} data-testid="footprint-project">
                {projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {pick(p, 'name')}
                  </option>
                ))}
              </WrapSelect>
            </div>
            <p className="fp-offset__tons" data-testid="footprint-offset-tons">
              <Trans>Tons to buy: {formatTons(tons)}</Trans>
            </p>
            <p className="field__hint">
              {needed > project.max_tons ? (
                <Trans>
                  Your footprint rounds up to {formatTons(needed)}; one order of this project takes at most {formatTons(project.max_tons)}, so the rest needs another order.
                </Trans>
              ) : needed < project.min_tons ? (
                <Trans>
                  Your footprint rounds up to {formatTons(needed)}; this project sells at least {formatTons(project.min_tons)} an order.
                </Trans>
              ) : (
                <Trans>Your footprint, rounded up to whole tons.</Trans>
              )}
            </p>
            <Link
              to="/pages/project/dproject"
              search={{ id: project.id, tons }}
              className="btn btn--block"
              data-testid="footprint-offset"
              aria-label={t`Offset it: buy ${formatTons(tons)} of ${pick(project, 'name')}`}
            >
              <Trans>Offset it</Trans>
            </Link>
            <p className="field__hint fp-offset__monthly">
              <Trans>Or a twelfth of it each month: {formatTons(monthly)} bought for you on a day you choose.</Trans>
            </p>
            <Link
              to="/pages/profile/offset"
              search={{ project_id: project.id, tons: monthly }}
              className="btn btn--ghost btn--block"
              data-testid="footprint-offset-monthly"
              aria-label={t`Offset every month: ${formatTons(monthly)} of ${pick(project, 'name')}`}
            >
              <Trans>Offset every month</Trans>
            </Link>
          </>
        )}
      </div>
    </section>
  );
}

function History({ rows, current }: { rows: LocalFootprint[]; current: number | undefined }) {
  const { i18n } = useLingui();
  return (
    <section className="section fp-section" aria-labelledby="fp-history">
      <h2 id="fp-history" className="section-title">
        <Trans>Past results on this device</Trans>
      </h2>
      <ul className="card fp-history" data-testid="footprint-history">
        {rows.map((r) => (
          <li key={r.id}>
            <Link to="/pages/profile/result" search={{ id: r.id! }} aria-current={r.id === current ? 'page' : undefined}>
              <span>{formatDateTime(r.created_at_ms)}</span>
              <span className="fp-history__value">{tonnesWithUnit(r.result.total_kg, i18n.locale)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
