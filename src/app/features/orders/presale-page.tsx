import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatDateTime, formatSgd, formatTons } from '../../lib/format';
import { getBaseSettings } from '../../lib/storage';
import { serverNow } from '../../lib/server-time';
import type { Project } from '../../../shared/schemas/content';
import { ProjectLoadState } from '../../components/project-load-state';
import { SaleCountdown } from '../../components/sale-countdown';
import { useProject } from '../../lib/project';
import { joinBlockLabel, statusLabel } from '../../lib/project-labels';
import { placeBooking } from './api';
import { orderTotal } from './order-calc';
import { bookingFee } from '../../../shared/fees';
import type { SummaryRow } from './order-parts';
import { OrderForm, OrderPlaced, useOrderForm } from './order-form';
import './orders.css';

// /pages/project/dpresale?id= : book a pre-sale. A booking pays a fee now (available -> pre-sale balance); the
// platform allocates the final tons and price later, and the final balance is paid before a deadline.

/** docs/product.md#pre-sale: 10% unless the server's base settings say otherwise. */
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
  const state = useOrderForm(project);
  const { bounds, tons, available, placed, limitReason } = state;
  const feeBp = presaleFeeBp();

  if (placed) return <OrderPlaced order={placed} title={t`Pre-sale booked`} />;

  const presalePrice = project.presale_price ?? project.price;
  const fee = bookingFee(tons.tons, presalePrice, feeBp);
  const estimate = orderTotal(tons.tons, presalePrice);
  const short = available !== null && tons.valid && fee > available;
  const windowOpen = project.status === 'presale' && serverNow() < project.selling_time_ms && project.join_block !== 'ended' && project.join_block !== 'full' && project.join_block !== 'paused';
  const reason =
    project.join_block === 'ended' || project.join_block === 'full' || project.join_block === 'paused'
      ? i18n._(joinBlockLabel[project.join_block])
      : project.status !== 'presale' || project.presale_price === null
        ? t`Booking is closed: this project is ${i18n._(statusLabel[project.status])}.`
        : !windowOpen
          ? t`The booking window has closed.`
          : limitReason;
  const pct = `${(feeBp / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
  const price = formatSgd(presalePrice);
  const closes = formatDateTime(project.selling_time_ms);

  const rows: SummaryRow[] = [
    [t`Pre-sale price`, t`${price} / ton`, { key: 'price' }],
    [t`Quantity booked`, formatTons(tons.tons), { key: 'tons' }],
    [t`Delivery`, t`Delivered at issuance`, { key: 'delivery', testId: 'presale-delivery' }],
    [t`Estimated value at pre-sale price`, formatSgd(estimate), { key: 'estimate' }],
    [t`Booking fee (${pct}) paid now`, formatSgd(fee), { strong: true, key: 'fee', testId: 'booking-fee' }],
  ];

  return (
    <OrderForm
      form="book"
      project={project}
      state={state}
      title={<Trans>Booking details</Trans>}
      redirect={`/pages/project/dpresale?id=${project.id}`}
      reason={reason}
      tonsLabel={<Trans>Tons to book</Trans>}
      tonsHint={
        <Trans>
          Per booking {formatTons(project.min_tons)} – {formatTons(bounds.max >= bounds.min ? bounds.max : project.max_tons)}
        </Trans>
      }
      rows={rows}
      summaryLabel={t`Booking summary`}
      short={short}
      shortNotice={<Trans>Your available balance is not enough for the booking fee.</Trans>}
      before={
        windowOpen && (
          <div className="section order-head">
            <SaleCountdown project={project} onDone={onTick}>
              <p className="muted sale-countdown__when">
                <Trans>Bookings close when the sale opens.</Trans>
              </p>
            </SaleCountdown>
          </div>
        )
      }
      submitLabel={
        <Trans>
          Book {formatTons(tons.tons)} · fee {formatSgd(fee)}
        </Trans>
      }
      sheet={{ title: <Trans>Confirm booking</Trans>, place: placeBooking, success: t`Pre-sale booked`, confirmLabel: <Trans>Pay booking fee {formatSgd(fee)}</Trans> }}
    >
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
          <li>
            <Trans>
              A pre-sale sells forward tons: credits the registry has not issued yet. They are delivered at issuance, and the allocation waits
              until the platform holds the issued units in its registry account.
            </Trans>
          </li>
        </ol>
      </section>
    </OrderForm>
  );
}
