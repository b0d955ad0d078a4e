import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { EmptyState, LoadingState, LogInState } from '../../components/empty-state';
import { Sheet } from '../../components/sheet';
import { useWrite } from '../../components/forms/use-write';
import { showToast } from '../../components/toast';
import { formatDate, formatDateTime, formatShortMonth, formatTons, pick } from '../../lib/format';
import { useMemberId } from '../../lib/user-info';
import { useOnline } from '../../lib/online';
import type { OffsetPlan, OffsetStatus } from '../../../shared/schemas/offset';
import { keepPlan, sendStatus, useOffsetPlans } from './api';
import './offset.css';

// /pages/profile/offsets: the member's monthly offsets, newest first: what each buys and when, its last
// month's outcome (the order, or why nothing was bought), the consent she gave, and pause, resume, change
// and cancel. Kept in Dexie, so the list reads offline; the buttons need a connection.

export function PlansPage() {
  const { t } = useLingui();
  const memId = useMemberId();
  const { list, error, online } = useOffsetPlans(memId);
  return (
    <div className="page offset-page">
      <NavBar title={t`Monthly offsets`} />
      <OfflineBar />
      {memId <= 0 ? (
        <LogInState redirect="/pages/profile/offsets">
          <Trans>Log in to see your monthly offsets.</Trans>
        </LogInState>
      ) : list === undefined ? (
        <LoadingState />
      ) : list === null ? (
        <p className="empty">{!online ? t`Your monthly offsets are not saved on this device yet.` : error || t`Loading…`}</p>
      ) : list.length === 0 ? (
        <EmptyState
          testId="offsets-empty"
          action={
            <Link to="/pages/profile/footprint" className="btn btn--ghost">
              <Trans>Work out your footprint</Trans>
            </Link>
          }
        >
          <Trans>No monthly offset yet. Set one up from your footprint result or a project page.</Trans>
        </EmptyState>
      ) : (
        <ul className="section offset-plans">
          {list.map((p) => (
            <PlanItem key={p.id} plan={p} memId={memId} />
          ))}
        </ul>
      )}
    </div>
  );
}

function PlanItem({ plan, memId }: { plan: OffsetPlan; memId: number }) {
  return (
    <li className="card offset-plan" data-testid="offset-plan">
      <div className="offset-plan__top">
        <strong className="offset-plan__project">{pick(plan, 'project_name')}</strong>
        <StatusChip status={plan.status} />
      </div>
      <p>
        <Trans>
          {formatTons(plan.tons)} on day {plan.day} of each month
        </Trans>
      </p>
      <p className="muted" data-testid="offset-next">
        {plan.next_run_at_ms !== null ? <Trans>Next buy: {formatDate(plan.next_run_at_ms)}</Trans> : plan.status === 'paused' ? <Trans>Paused: nothing is bought until you resume.</Trans> : <Trans>Cancelled: nothing more is bought.</Trans>}
      </p>
      <LastRun plan={plan} />
      <details className="offset-plan__consent">
        <summary>
          <Trans>Consent given {formatDateTime(plan.consent_at_ms)}</Trans>
        </summary>
        <p>{plan.consent_text}</p>
      </details>
      {plan.status !== 'cancelled' && <PlanActions plan={plan} memId={memId} />}
    </li>
  );
}

function StatusChip({ status }: { status: OffsetStatus }) {
  const { t } = useLingui();
  const label = status === 'active' ? t`Active` : status === 'paused' ? t`Paused` : t`Cancelled`;
  return <span className={`chip offset-chip offset-chip--${status}`}>{label}</span>;
}

function LastRun({ plan }: { plan: OffsetPlan }) {
  const run = plan.last_run;
  if (!run) return null;
  const month = formatShortMonth(run.month);
  if (run.outcome === 'placed') {
    return (
      <p className="offset-plan__run" data-testid="offset-last-run">
        <Trans>
          {month}: bought. <Link to="/pages/profile/order">See orders</Link>
        </Trans>
      </p>
    );
  }
  const reason = pick(run, 'reason');
  return (
    <p className="offset-plan__run offset-plan__run--refused" data-testid="offset-last-run">
      <Trans>
        {month}: nothing bought. {reason}
      </Trans>
    </p>
  );
}

function PlanActions({ plan, memId }: { plan: OffsetPlan; memId: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const [cancelling, setCancelling] = useState(false);
  const write = useWrite<OffsetStatus, OffsetPlan>((status, key) => sendStatus({ id: plan.id, status }, key), (status) => ({ id: plan.id, status }));
  const act = async (status: OffsetStatus) => {
    const res = await write.run(status);
    if (res?.code === 0) {
      await keepPlan(memId, res.data);
      setCancelling(false);
      showToast(status === 'paused' ? t`Monthly offset paused` : status === 'active' ? t`Monthly offset resumed` : t`Monthly offset cancelled`, 'success');
    }
  };
  const disabled = !online || write.busy;
  return (
    <>
      {write.error && !cancelling && <p className="field__error">{write.error}</p>}
      <div className="offset-plan__actions">
        {plan.status === 'active' ? (
          <button type="button" className="btn btn--ghost" disabled={disabled} onClick={() => void act('paused')} data-testid="offset-pause">
            <Trans>Pause</Trans>
          </button>
        ) : (
          <button type="button" className="btn btn--ghost" disabled={disabled} onClick={() => void act('active')} data-testid="offset-resume">
            <Trans>Resume</Trans>
          </button>
        )}
        <Link to="/pages/profile/offset" search={{ id: plan.id }} className="btn btn--ghost" data-testid="offset-change">
          <Trans context="a monthly offset plan">Change</Trans>
        </Link>
        <button type="button" className="btn btn--ghost offset-plan__cancel" disabled={disabled} onClick={() => setCancelling(true)} data-testid="offset-cancel">
          <Trans>Cancel</Trans>
        </button>
      </div>
      {!online && (
        <p className="muted">
          <Trans>Changes need a connection.</Trans>
        </p>
      )}
      <Sheet open={cancelling} onClose={() => setCancelling(false)} labelledBy={`offset-cancel-${plan.id}`} testId="offset-cancel-sheet">
        <h2 id={`offset-cancel-${plan.id}`} className="sheet__title">
          <Trans>Cancel this monthly offset?</Trans>
        </h2>
        <p>
          <Trans>Nothing more will be bought for it. Orders already placed stay yours. To offset again later, set up a new one.</Trans>
        </p>
        {write.error && <p className="field__error">{write.error}</p>}
        <div className="offset-plan__actions">
          <button type="button" className="btn btn--danger" disabled={disabled} onClick={() => void act('cancelled')} data-testid="offset-cancel-confirm">
            <Trans>Cancel it</Trans>
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setCancelling(false)}>
            <Trans>Keep it</Trans>
          </button>
        </div>
      </Sheet>
    </>
  );
}
