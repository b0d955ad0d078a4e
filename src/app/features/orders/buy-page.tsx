import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatSgd, formatTons, pick } from '../../lib/format';
import type { Order } from '../../../shared/schemas/order';
import type { Project } from '../../../shared/schemas/content';
import { ProjectLoadState } from '../../components/project-load-state';
import { SubmitButton } from '../../components/forms/submit-button';
import { useProject } from '../../lib/project';
import { joinBlockLabel, statusLabel } from '../../lib/project-labels';
import { useLimits } from '../../lib/order-limits';
import { useUserInfo } from '../../lib/user-info';
import { placeBuy } from './api';
import { orderTotal, tonsBounds } from './order-calc';
import { AccountGate, AvailableBalance, OrderConfirmSheet, OrderCard, RemainingLimits, Summary, TonsStepper, type SummaryRow } from './order-parts';
import { useTons } from './use-tons';
import './orders.css';

// /pages/project/dproject?id= : buy a project by the ton.

export function ProjectMini({ project }: { project: Project }) {
  const { i18n } = useLingui();
  return (
    <Link to="/pages/project/project" search={{ id: project.id }} className="order-project card" data-testid="order-project">
      <img src={project.image} alt="" width={72} height={72} className="order-project__img" />
      <span className="order-project__body">
        <span className={`status status--${project.status}`}>{i18n._(statusLabel[project.status])}</span>
        <span className="order-project__name">{pick(project, 'name')}</span>
        <span className="muted order-project__meta">
          {project.location} · {project.standard}
        </span>
      </span>
    </Link>
  );
}

/** After a successful order: the order itself, its countdown and where to follow it. */
export function OrderPlaced({ order, title }: { order: Order; title: React.ReactNode }) {
  return (
    <section className="section order-placed" aria-labelledby="order-placed-title" data-testid="order-placed">
      <h2 className="section-title order-placed__title" id="order-placed-title">
        <span aria-hidden="true" className="order-placed__tick">
          ✓
        </span>{' '}
        {title}
      </h2>
      <OrderCard order={order} />
      <div className="order-placed__links">
        <Link to="/pages/profile/order" className="btn btn--block" data-testid="go-orders">
          <Trans>View my orders</Trans>
        </Link>
        <Link to="/pages/project/project" search={{ id: order.project_id }} className="btn btn--ghost btn--block">
          <Trans>Back to the project</Trans>
        </Link>
      </div>
    </section>
  );
}

/** `tons`: a quantity to start with (the footprint's "Offset it"); the form still holds it to the limits. */
export function BuyPage({ id, tons }: { id: number; tons?: number }) {
  const { t } = useLingui();
  const { load } = useProject(id);
  const project = load.state === 'ready' ? load.project : null;
  return (
    <div className="page order-page">
      <NavBar title={t`Buy by the ton`} />
      <OfflineBar />
      {project ? <BuyForm project={project} initialTons={tons} /> : load.state !== 'ready' && <ProjectLoadState load={load} />}
    </div>
  );
}

function BuyForm({ project, initialTons }: { project: Project; initialTons?: number }) {
  const { t, i18n } = useLingui();
  const { info, member } = useUserInfo();
  const { limits } = useLimits(project.id, member);
  const [placed, setPlaced] = useState<Order | null>(null);
  const [confirming, setConfirming] = useState(false);
  const bounds = tonsBounds(project, limits);
  const tons = useTons(bounds, initialTons);

  if (placed) return <OrderPlaced order={placed} title={t`Order placed`} />;

  const total = orderTotal(tons.tons, project.price);
  const available = info?.wallet?.available ?? null;
  const short = available !== null && tons.valid && total > available;
  const reason = project.join_block
    ? i18n._(joinBlockLabel[project.join_block])
    : project.status !== 'in_progress'
      ? project.status === 'presale'
        ? t`This project is in pre-sale: book it instead.`
        : i18n._(statusLabel[project.status])
      : bounds.max < bounds.min
        ? t`You have reached your limit on this project for now.`
        : info && info.grade < project.required_grade
          ? t`This project needs membership P${project.required_grade}; you are P${info.grade}.`
          : null;
  const gate = <AccountGate member={member} info={info} redirect={`/pages/project/dproject?id=${project.id}`} />;
  const blocked = Boolean(reason) || !member || !info || info.risk || !info.has_withdraw_password;
  const price = formatSgd(project.price);

  const rows: SummaryRow[] = [
    [t`Unit price`, t`${price} / ton`, { key: 'price' }],
    [t`Quantity`, formatTons(tons.tons), { key: 'tons' }],
    [t`Platform fee`, formatSgd(0), { key: 'fee' }],
    [t`Total`, formatSgd(total), { strong: true, key: 'total', testId: 'order-total' }],
  ];

  return (
    <>
      <div className="section section--tight">
        <ProjectMini project={project} />
      </div>
      <form className="section order-form" onSubmit={(e) => e.preventDefault()} noValidate aria-labelledby="buy-title">
        <h2 className="sr-only" id="buy-title">
          <Trans>Order details</Trans>
        </h2>
        {gate}
        {reason && (
          <p className="notice notice--warn" role="status" data-testid="order-block">
            {reason}
          </p>
        )}
        <TonsStepper
          id="buy-tons"
          label={<Trans>Quantity (tons)</Trans>}
          value={tons.text}
          onChange={tons.setText}
          bounds={bounds}
          error={tons.error}
          hint={
            <Trans>
              Per order {formatTons(project.min_tons)} – {formatTons(bounds.max >= bounds.min ? bounds.max : project.max_tons)}
            </Trans>
          }
        />
        {limits && <RemainingLimits limits={limits} />}
        <Summary rows={rows} label={t`Order summary`} />
        <AvailableBalance available={available} />
        {short && (
          <p className="notice notice--warn" role="status">
            <Trans>Your available balance is not enough for this order.</Trans>
          </p>
        )}
        <p className="muted order-explain">
          <Trans>
            After payment the order is in progress for one deadline cycle; then the tons are added to your carbon credit balance.
          </Trans>
        </p>
      </form>
      <div className="action-bar">
        <SubmitButton testId="buy-submit" disabled={blocked || !tons.valid || short} onClick={() => setConfirming(true)}>
          <Trans>Buy {formatTons(tons.tons)} for {formatSgd(total)}</Trans>
        </SubmitButton>
      </div>
      <OrderConfirmSheet
        open={confirming}
        onClose={() => setConfirming(false)}
        title={<Trans>Confirm purchase</Trans>}
        intent={{ op: 'buy', project_id: project.id, tons: tons.tons }}
        submit={(password, key) => placeBuy({ project_id: project.id, tons: tons.tons, password }, key)}
        success={t`Order placed`}
        onDone={setPlaced}
        confirmLabel={<Trans>Pay {formatSgd(total)}</Trans>}
      >
        <p className="sheet__what">{pick(project, 'name')}</p>
        <Summary rows={rows} testIds={false} />
      </OrderConfirmSheet>
    </>
  );
}
