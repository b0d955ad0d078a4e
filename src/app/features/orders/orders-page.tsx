import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { InfiniteList } from '../../components/infinite-list';
import { Countdown } from '../../components/countdown';
import { useOnline } from '../../lib/online';
import { formatDateTime, formatSgd, formatTons, pick } from '../../lib/format';
import type { Order } from '../../../shared/schemas/order';
import { useUserInfo } from '../../lib/user-info';
import { payFinalBalance, refreshOrder, useCredits, useOrders } from './api';
import type { CreditHolding } from '../../../shared/schemas/order';
import { useSession } from '../../lib/storage';
import { ORDER_TABS, finalPayment, type OrderTab } from './order-calc';
import { AvailableBalance, OrderConfirmSheet, OrderCard, Summary, type SummaryRow } from './order-parts';
import { LogInState } from '../../components/empty-state';
import './orders.css';

// /pages/profile/order: buy and sell records by status, with their countdowns, readable offline from Dexie.
// A pre-sale awaiting its final payment is paid from here.

const TAB_LABEL: Record<OrderTab, MessageDescriptor> = {
  all: msg`All`,
  in_progress: msg`In progress`,
  pending: msg`To pay`,
  completed: msg`Completed`,
  sell: msg`Sold`,
};

export function OrdersPage({ tab, onTab }: { tab: OrderTab; onTab: (tab: OrderTab) => void }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const { member } = useUserInfo();
  const list = useOrders(tab, member);
  const [paying, setPaying] = useState<Order | null>(null);
  const session = useSession();
  const { credits } = useCredits(session.login.mem_id, member);
  const holdings = new Map((credits?.holdings ?? []).map((h) => [h.project_id, h]));

  return (
    <div className="page orders-page">
      <NavBar title={t`My orders`} />
      <OfflineBar />
      <div className="orders-tabs-wrap">
        <div className="segmented orders-tabs" role="group" aria-label={t`Order status`}>
          {ORDER_TABS.map((key) => (
            <button key={key} type="button" aria-pressed={tab === key} onClick={() => onTab(key)} data-testid={`order-tab-${key}`}>
              <span className="orders-tabs__label">{i18n._(TAB_LABEL[key])}</span>
            </button>
          ))}
        </div>
      </div>
      {!member ? (
        <LogInState redirect="/pages/profile/order">
          <Trans>Log in to see your orders.</Trans>
        </LogInState>
      ) : (
        <section className="section orders-list" aria-label={t`Orders`}>
          {list.orders === undefined ? null : (
            <InfiniteList
              hasMore={list.hasMore}
              loading={list.loading}
              onLoadMore={list.loadMore}
              isEmpty={list.orders.length === 0}
              empty={
                <div className="empty">
                  <p>
                    {!online && !list.answered ? (
                      <Trans>No orders saved on this device. Connect to the internet to see them.</Trans>
                    ) : (
                      <Trans>No orders here yet.</Trans>
                    )}
                  </p>
                  <Link to="/pages/project/index" className="btn btn--ghost">
                    <Trans>Browse projects</Trans>
                  </Link>
                </div>
              }
            >
              {list.orders.map((o) => (
                <OrderCard
                  key={o.id}
                  order={o}
                  onPay={online ? setPaying : undefined}
                  onTick={() => void refreshOrder(o.id)}
                  next={o.side === 'buy' && o.status === 'completed' && (o.final_tons ?? o.tons) > 0 ? <NextSteps order={o} holding={holdings.get(o.project_id)} /> : undefined}
                />
              ))}
            </InfiniteList>
          )}
        </section>
      )}
      {paying && <FinalPaySheet order={paying} onClose={() => setPaying(null)} />}
    </div>
  );
}

/** What a completed purchase leads to, as far as the product allows it now (docs/product.md#retirement,
 *  docs/product.md#selling-back): retiring what is still held, selling back what the member's grade lets
 *  them sell; with nothing left of the project, the credits screen. */
function NextSteps({ order, holding }: { order: Order; holding: CreditHolding | undefined }) {
  const held = holding?.tons ?? 0;
  const sellable = holding?.sellable_tons ?? 0;
  return (
    <div className="order-card__next" data-testid="order-next">
      {held > 0 ? (
        <>
          <Link to="/pages/profile/retire" search={{ project_id: order.project_id }} className="btn btn--ghost order-card__step" data-testid="order-retire">
            <Trans>Retire</Trans>
          </Link>
          {sellable > 0 && (
            <Link to="/pages/project/dsell" search={{ id: order.project_id }} className="btn btn--ghost order-card__step" data-testid="order-sell">
              <Trans>Sell back</Trans>
            </Link>
          )}
        </>
      ) : (
        <Link to="/pages/profile/tons" className="btn btn--ghost order-card__step" data-testid="order-credits">
          <Trans>My carbon credits</Trans>
        </Link>
      )}
    </div>
  );
}

/** The final payment of an allocated pre-sale: what was allocated, what the booking fee covers, what is due. */
export function FinalPaySheet({ order, onClose }: { order: Order; onClose: () => void }) {
  const { t } = useLingui();
  const { info } = useUserInfo();
  const { cost, fromFee, due } = finalPayment(order);
  const finalPrice = formatSgd(order.final_unit_price ?? 0);
  const available = info?.wallet?.available ?? null;
  const rows: SummaryRow[] = [
    [t`Final tons`, formatTons(order.final_tons ?? 0), { key: 'tons' }],
    [t`Final unit price`, t`${finalPrice} / ton`, { key: 'price' }],
    [t`Final cost`, formatSgd(cost), { key: 'cost' }],
    [t`Booking fee already paid`, `− ${formatSgd(fromFee)}`, { key: 'fee' }],
    [t`Amount due now`, formatSgd(due), { strong: true, key: 'due', testId: 'final-due' }],
  ];
  return (
    <OrderConfirmSheet
      open
      onClose={onClose}
      title={<Trans>Pay the final balance</Trans>}
      intent={{ op: 'finalpay', order_id: order.id }}
      submit={(password, key) => payFinalBalance({ order_id: order.id, password }, key)}
      success={t`Final payment made`}
      onDone={() => undefined}
      confirmLabel={<Trans>Pay {formatSgd(due)}</Trans>}
    >
      <p className="sheet__what">
        {pick(order, 'project_name')} · {order.order_no}
      </p>
      <Summary rows={rows} />
      {order.final_deadline_ms && (
        <p className="order-clock order-clock--final">
          <span className="order-clock__label">
            <Trans>Deadline</Trans>
          </span>
          <Countdown to={order.final_deadline_ms} className="order-clock__timer" />
          <span className="order-clock__when muted">{formatDateTime(order.final_deadline_ms)}</span>
        </p>
      )}
      {available !== null && <AvailableBalance available={available} />}
      <p className="muted">
        <Trans>Unpaid by the deadline, the final-payment period expires and the booking fee is forfeited.</Trans>
      </p>
    </OrderConfirmSheet>
  );
}
