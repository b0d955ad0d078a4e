import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Countdown } from '../../components/countdown';
import { showToast } from '../../components/toast';
import { formatDateTime, formatSgd, formatTons, pick } from '../../lib/format';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { useWrite } from '../../components/forms/use-write';
import type { Order, OrderLimits } from '../../../shared/schemas/order';
import type { UserInfo } from '../../../shared/schemas/user';
import type { WriteOutcome } from './api';
import { clampTons, finalPayment, orderClock, parseTons, statusDescriptor, statusTone, type TonsBounds } from './order-calc';
import './orders.css';

// Pieces shared by the buy, book, final payment and sell screens and the orders list.

/** A whole-tons input with − and + buttons, kept within the bounds by the buttons (typing is free, then checked). */
export function TonsStepper({
  id,
  value,
  onChange,
  bounds,
  label,
  error,
  hint,
}: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  bounds: TonsBounds;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}) {
  const { t } = useLingui();
  const n = parseTons(value);
  const disabled = bounds.max < bounds.min;
  const step = (delta: number) => onChange(String(clampTons((n ?? bounds.min - delta) + delta, bounds)));
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="stepper">
        <button type="button" className="stepper__btn" onClick={() => step(-1)} disabled={disabled || n === null || n <= bounds.min} aria-label={t`One ton less`} data-testid="tons-minus">
          −
        </button>
        <input
          id={id}
          name="tons"
          data-testid="tons-input"
          className="input stepper__input"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={9}
          value={value}
          onChange={(e) => onChange(e.target.value.replace(/[^\d]/g, ''))}
          onBlur={() => n !== null && onChange(String(clampTons(n, bounds)))}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : hint ? hintId : undefined}
          disabled={disabled}
        />
        <span className="stepper__unit" aria-hidden="true">
          {t({ message: 't', comment: 'The unit after the tons field: metric tons, as short as possible (zh: 吨)' })}
        </span>
        <button type="button" className="stepper__btn" onClick={() => step(1)} disabled={disabled || (n !== null && n >= bounds.max)} aria-label={t`One ton more`} data-testid="tons-plus">
          +
        </button>
      </div>
      {hint && !error && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

export type SummaryRow = [label: ReactNode, value: ReactNode, opts?: { strong?: boolean; testId?: string; key: string }];

/** A definition list of amounts: label left, value right; the last (total) row in bold. */
/** The caller's room under the project's limits, as the server counts it. */
export function RemainingLimits({ limits }: { limits: OrderLimits }) {
  return (
    <p className="muted order-limits" data-testid="order-limits">
      <Trans>
        Your remaining limit: {formatTons(limits.monthly_left)} this month, {formatTons(limits.total_left)} in total.
      </Trans>
    </p>
  );
}

/** The available balance an order or payment draws on ("—" until it is known). */
export function AvailableBalance({ available }: { available: number | null }) {
  return (
    <p className="order-balance">
      <span>
        <Trans>Available balance</Trans>
      </span>
      <strong data-testid="available-balance">{available === null ? '—' : formatSgd(available)}</strong>
    </p>
  );
}

/** `available` (when given) closes the card with the balance the order draws on, in the same columns as the
 *  amounts above it ("—" until it is known). */
export function Summary({ rows, label, testIds = true, available }: { rows: SummaryRow[]; label?: string; testIds?: boolean; available?: number | null }) {
  return (
    <dl className="summary card" aria-label={label}>
      {rows.map(([l, v, o], i) => (
        <div className={o?.strong ? 'summary__row summary__row--strong' : 'summary__row'} key={o?.key ?? i}>
          <dt>{l}</dt>
          <dd data-testid={testIds ? o?.testId : undefined}>{v}</dd>
        </div>
      ))}
      {available !== undefined && (
        <div className="summary__row summary__row--balance">
          <dt>
            <Trans>Available balance</Trans>
          </dt>
          <dd data-testid="available-balance">{available === null ? '—' : formatSgd(available)}</dd>
        </div>
      )}
    </dl>
  );
}

/**
 * The confirm step of an order or a final payment: what is about to happen, the payment password (the
 * payment password) and the confirm button (the kit's ConfirmSheet). One Idempotency-Key per intent
 * (`intent` without the password, as the server fingerprints it); a refusal shows the server's message and
 * keeps the sheet open; success closes it with a toast.
 */
export function OrderConfirmSheet({
  open,
  onClose,
  title,
  children,
  intent,
  submit,
  success,
  onDone,
  confirmLabel,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  intent: Record<string, unknown>;
  submit: (password: string, key: string) => Promise<WriteOutcome>;
  success: string;
  onDone: (order: Order) => void;
  confirmLabel: ReactNode;
}) {
  const { t } = useLingui();
  const write = useWrite<string, Order | null>(
    async (password, key) => {
      const out = await submit(password, key);
      return { code: out.code, msg: out.msg, data: out.order, wait: 0, time: 0 };
    },
    () => intent,
  );
  const close = () => {
    write.setError('');
    onClose();
  };
  const confirm = async (password: string): Promise<number | null> => {
    const res = await write.run(password);
    if (res?.code === 0 && res.data) {
      showToast(success, 'success');
      onDone(res.data);
      close();
    }
    return res?.code ?? null;
  };
  return (
    <ConfirmSheet
      open={open}
      onClose={close}
      title={title}
      password={{
        id: 'confirm-password',
        testId: 'payment-password',
        label: <Trans>Payment password</Trans>,
        hint: <Trans>The payment password you set in your profile: it pays for orders and withdrawals.</Trans>,
        missing: t`Enter your payment password.`,
      }}
      busy={write.busy}
      error={write.error}
      confirmLabel={confirmLabel}
      busyLabel={<Trans>Processing…</Trans>}
      onConfirm={confirm}
      testId="confirm-sheet"
      submitTestId="confirm-submit"
      closeTestId="confirm-close"
    >
      {children}
    </ConfirmSheet>
  );
}

/** What stops a signed-out visitor or a member without a payment password. null when nothing does. */
export function AccountGate({ member, info, redirect }: { member: boolean; info: UserInfo | null | undefined; redirect: string }) {
  if (!member)
    return (
      <div className="notice notice--warn order-gate" role="status">
        <p>
          <Trans>Log in with a member account to order. Visitors can browse only.</Trans>
        </p>
        <Link to="/pages/login/index" search={{ redirect }} className="btn btn--ghost">
          <Trans>Log in</Trans>
        </Link>
      </div>
    );
  if (info && info.risk)
    return (
      <p className="notice notice--danger order-gate" role="status">
        <Trans>This account is under risk control and cannot place orders.</Trans>
      </p>
    );
  if (info && !info.has_withdraw_password)
    return (
      <div className="notice notice--warn order-gate" role="status">
        <p>
          <Trans>Set a payment password first.</Trans>
        </p>
        <a href="/pages/profile/withdpwd" className="btn btn--ghost">
          <Trans>Set payment password</Trans>
        </a>
      </div>
    );
  return null;
}

export function StatusChip({ order }: { order: Pick<Order, 'side' | 'status'> }) {
  const { i18n } = useLingui();
  return (
    <span className={`order-status order-status--${statusTone[order.status]}`} data-testid="order-status">
      {i18n._(statusDescriptor(order))}
    </span>
  );
}

/** The countdown an order is waiting on, with what it counts down to. */
export function OrderClockView({ order, onDone }: { order: Order; onDone?: () => void }) {
  const clock = orderClock(order);
  if (!clock) return null;
  const when = formatDateTime(clock.to);
  return (
    <div className={`order-clock order-clock--${clock.kind}`}>
      <span className="order-clock__label">
        {clock.kind === 'cycle' ? <Trans>Credits arrive in</Trans> : clock.kind === 'final' ? <Trans>Pay the final balance within</Trans> : <Trans>Proceeds settle in</Trans>}
      </span>
      <Countdown to={clock.to} onDone={onDone} className="order-clock__timer" />
      <span className="order-clock__when muted">{when}</span>
    </div>
  );
}

/** One order as a card: project, number, status, amounts, countdown; pre-sales awaiting payment get a Pay button. */
/** One order. Its project's name opens the project, the whole card being its tap target; `next` holds the
 *  steps a completed order leads to (retire, sell back). */
export function OrderCard({ order, onPay, onTick, next }: { order: Order; onPay?: (order: Order) => void; onTick?: () => void; next?: ReactNode }) {
  const name = pick(order, 'project_name');
  const created = formatDateTime(order.created_at_ms);
  const tons = formatTons(order.final_tons ?? order.tons);
  const price = formatSgd(order.final_unit_price ?? order.unit_price);
  const presale = order.kind === 'presale';
  const fp = finalPayment(order);
  return (
    <article className="order-card card" data-testid="order-card" data-order-id={order.id} aria-labelledby={`order-${order.id}-name`}>
      <div className="order-card__top">
        <span className="order-card__kind muted">
          {order.kind === 'purchase' ? <Trans>Purchase</Trans> : presale ? <Trans>Pre-sale</Trans> : <Trans>Sell back</Trans>}
        </span>
        <StatusChip order={order} />
      </div>
      <h3 className="order-card__name" id={`order-${order.id}-name`}>
        <Link to="/pages/project/project" search={{ id: order.project_id }} className="order-card__link" data-testid="order-card-project">
          {name}
        </Link>
      </h3>
      <p className="order-card__no muted">
        <Trans>
          No. {order.order_no} · {created}
        </Trans>
      </p>
      <dl className="order-card__nums">
        <div>
          <dt>
            <Trans>Quantity</Trans>
          </dt>
          <dd>{tons}</dd>
        </div>
        <div>
          <dt>
            <Trans>Unit price</Trans>
          </dt>
          <dd>{price}</dd>
        </div>
        <div>
          <dt>{order.side === 'sell' ? <Trans>Proceeds</Trans> : presale ? <Trans>Booking fee</Trans> : <Trans>Total</Trans>}</dt>
          <dd>{formatSgd(presale ? order.booking_fee : order.total)}</dd>
        </div>
      </dl>
      {presale && order.status === 'pending_final_payment' && (
        <p className="order-card__due">
          <Trans>Final payment due: {formatSgd(fp.due)}</Trans>
        </p>
      )}
      {presale && order.status === 'final_payment_expired' && (
        <p className="notice notice--danger order-card__note">
          <Trans>Final-payment period expired; the booking fee was forfeited.</Trans>
        </p>
      )}
      {presale && order.status === 'applying' && (
        <p className="muted order-card__note">
          <Trans>Booked {formatTons(order.tons)}. Waiting for the platform to allocate the pre-sale.</Trans>
        </p>
      )}
      {order.side === 'sell' && order.status === 'completed' && order.settled_at_ms && (
        <p className="muted order-card__note">
          <Trans>Settled to your available balance on {formatDateTime(order.settled_at_ms)}.</Trans>
        </p>
      )}
      <OrderClockView order={order} onDone={onTick} />
      {onPay && order.status === 'pending_final_payment' && (
        <button type="button" className="btn btn--block order-card__pay" onClick={() => onPay(order)} data-testid="final-pay-open">
          <Trans>Pay final balance</Trans>
        </button>
      )}
      {next}
      <Link to="/pages/profile/receipts" search={{ order_id: order.id }} className="order-card__receipt" data-testid="order-receipt">
        <Trans>Receipt</Trans>
      </Link>
    </article>
  );
}
