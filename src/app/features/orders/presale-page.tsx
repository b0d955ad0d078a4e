import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatDateTime, formatSgd, formatTons, pick } from '../../lib/format';
import { getBaseSettings } from '../../lib/storage';
import { serverNow } from '../../lib/server-time';
import type { Order } from '../../../shared/schemas/order';
import type { Project } from '../../../shared/schemas/content';
import { ProjectLoadState } from '../../components/project-load-state';
import { SaleCountdown } from '../../components/sale-countdown';
import { SubmitButton } from '../../components/forms/submit-button';
import { useProject } from '../../lib/project';
import { joinBlockLabel, statusLabel } from '../../lib/project-labels';
import { useLimits } from '../../lib/order-limits';
import { useUserInfo } from '../../lib/user-info';
import { placeBooking } from './api';
import { orderTotal, tonsBounds } from './order-calc';
import { bookingFee } from '../../../shared/fees';
import { AccountGate, AvailableBalance, OrderConfirmSheet, RemainingLimits, Summary, TonsStepper, type SummaryRow } from './order-parts';
import { OrderPlaced, ProjectMini } from './buy-page';
import { useTons } from './use-tons';
import './orders.css';

// /pages/project/dpresale?id= : book a pre-sale. A booking pays a fee now (available -> pre-sale balance); the
// platform allocates the final tons and price later, and the final balance is paid before a deadline.

/** DECISIONS "Pre-sale": 10% unless the server's base settings say otherwise. */
const DEFAULT_PRESALE_FEE_BP = 1000;
export const presaleFeeBp = (): number => getBaseSettings()?.limits?.presale_fee_bp ?? DEFAULT_PRESALE_FEE_BP;

export function PresalePage({ id }: { id: number }) {
  const { t } = useLingui();
  const { load, refresh } = useProject(id);
  const project = load.state === 'ready' ? load.project : null;
  return (
    <div className="page order-page">
      <NavBar title={t`Book pre-sale`} />
      <OfflineBar />
      {project ? <BookForm project={project} onTick={() => void refresh()} /> : load.state !== 'ready' && <ProjectLoadState load={load} />}
    </div>
  );
}

function BookForm({ project, onTick }: { project: Project; onTick: () => void }) {
  const { t, i18n } = useLingui();
  const { info, member } = useUserInfo();
  const { limits } = useLimits(project.id, member);
  const [placed, setPlaced] = useState<Order | null>(null);
  const [confirming, setConfirming] = useState(false);
  const bounds = tonsBounds(project, limits);
  const tons = useTons(bounds);
  const feeBp = presaleFeeBp();

  if (placed) return <OrderPlaced order={placed} title={t`Pre-sale booked`} />;

  const presalePrice = project.presale_price ?? project.price;
  const fee = bookingFee(tons.tons, presalePrice, feeBp);
  const estimate = orderTotal(tons.tons, presalePrice);
  const available = info?.wallet?.available ?? null;
  const short = available !== null && tons.valid && fee > available;
  const windowOpen = project.status === 'presale' && serverNow() < project.selling_time_ms && project.join_block !== 'ended' && project.join_block !== 'full';
  const reason =
    project.join_block === 'ended' || project.join_block === 'full'
      ? i18n._(joinBlockLabel[project.join_block])
      : project.status !== 'presale' || project.presale_price === null
        ? t`Booking is closed: this project is ${i18n._(statusLabel[project.status])}.`
        : !windowOpen
          ? t`The booking window has closed.`
          : bounds.max < bounds.min
            ? t`You have reached your limit on this project for now.`
            : info && info.grade < project.required_grade
              ? t`This project needs membership P${project.required_grade}; you are P${info.grade}.`
              : null;
  const blocked = Boolean(reason) || !member || !info || info.risk || !info.has_withdraw_password;
  const pct = `${(feeBp / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
  const price = formatSgd(presalePrice);
  const closes = formatDateTime(project.selling_time_ms);

  const rows: SummaryRow[] = [
    [t`Pre-sale price`, t`${price} / ton`, { key: 'price' }],
    [t`Quantity booked`, formatTons(tons.tons), { key: 'tons' }],
    [t`Estimated value at pre-sale price`, formatSgd(estimate), { key: 'estimate' }],
    [t`Booking fee (${pct}) paid now`, formatSgd(fee), { strong: true, key: 'fee', testId: 'booking-fee' }],
  ];

  return (
    <>
      <div className="section section--tight">
        <ProjectMini project={project} />
      </div>
      {windowOpen && (
        <div className="section section--tight">
          <SaleCountdown project={project} onDone={onTick}>
            <p className="muted sale-countdown__when">
              <Trans>Bookings close when the sale opens.</Trans>
            </p>
          </SaleCountdown>
        </div>
      )}
      <form className="section order-form" onSubmit={(e) => e.preventDefault()} noValidate aria-labelledby="book-title">
        <h2 className="sr-only" id="book-title">
          <Trans>Booking details</Trans>
        </h2>
        <AccountGate member={member} info={info} redirect={`/pages/project/dpresale?id=${project.id}`} />
        {reason && (
          <p className="notice notice--warn" role="status" data-testid="order-block">
            {reason}
          </p>
        )}
        <TonsStepper
          id="book-tons"
          label={<Trans>Tons to book</Trans>}
          value={tons.text}
          onChange={tons.setText}
          bounds={bounds}
          error={tons.error}
          hint={
            <Trans>
              Per booking {formatTons(project.min_tons)} – {formatTons(bounds.max >= bounds.min ? bounds.max : project.max_tons)}
            </Trans>
          }
        />
        {limits && <RemainingLimits limits={limits} />}
        <Summary rows={rows} label={t`Booking summary`} />
        <AvailableBalance available={available} />
        {short && (
          <p className="notice notice--warn" role="status">
            <Trans>Your available balance is not enough for the booking fee.</Trans>
          </p>
        )}
        <section className="card order-steps" aria-labelledby="presale-how">
          <h3 id="presale-how" className="order-steps__title">
            <Trans>How a pre-sale works</Trans>
          </h3>
          <ol>
            <li>
              <Trans>Book now until {closes} (Singapore time). The booking fee moves from your available balance to your pre-sale balance.</Trans>
            </li>
            <li>
              <Trans>
                The platform then allocates the pre-sale: the final unit price and your final tons (never more than booked; shared pro rata when
                bookings exceed the supply).
              </Trans>
            </li>
            <li>
              <Trans>
                You pay the final balance — final tons × final price, less the booking fee — before the deadline shown in your orders with a
                countdown.
              </Trans>
            </li>
            <li>
              <Trans>If the deadline passes unpaid, the final-payment period expires and the booking fee is forfeited.</Trans>
            </li>
          </ol>
        </section>
      </form>
      <div className="action-bar">
        <SubmitButton testId="book-submit" disabled={blocked || !tons.valid || short} onClick={() => setConfirming(true)}>
          <Trans>
            Book {formatTons(tons.tons)} · fee {formatSgd(fee)}
          </Trans>
        </SubmitButton>
      </div>
      <OrderConfirmSheet
        open={confirming}
        onClose={() => setConfirming(false)}
        title={<Trans>Confirm booking</Trans>}
        intent={{ op: 'book', project_id: project.id, tons: tons.tons }}
        submit={(password, key) => placeBooking({ project_id: project.id, tons: tons.tons, password }, key)}
        success={t`Pre-sale booked`}
        onDone={setPlaced}
        confirmLabel={<Trans>Pay booking fee {formatSgd(fee)}</Trans>}
      >
        <p className="sheet__what">{pick(project, 'name')}</p>
        <Summary rows={rows} testIds={false} />
      </OrderConfirmSheet>
    </>
  );
}
