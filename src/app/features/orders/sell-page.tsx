import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatSgd, formatTons, formatYield, pick } from '../../lib/format';
import { getBaseSettings, useSession } from '../../lib/storage';
import type { Order } from '../../../shared/schemas/order';
import type { Project } from '../../../shared/schemas/content';
import { ProjectLoadState } from '../../components/project-load-state';
import { SubmitButton } from '../../components/forms/submit-button';
import { useProject } from '../../lib/project';
import { useUserInfo } from '../../lib/user-info';
import { placeSale, useCredits } from './api';
import { gradeRights } from './order-calc';
import { buybackPrice } from '../../../shared/fees';
import { AccountGate, OrderConfirmSheet, Summary, TonsStepper, type SummaryRow } from './order-parts';
import { OrderPlaced, ProjectMini } from './order-form';
import { useTons } from './use-tons';
import './orders.css';

// /pages/project/dsell?id= : sell credits of a project back to the platform at its buy-back price. The
// proceeds wait in the unavailable balance until they settle after the configured working days.

export const settlementDays = (): number => getBaseSettings()?.limits?.settlement_working_days ?? 2;

export function SellPage({ id }: { id: number }) {
  const { t } = useLingui();
  const { load } = useProject(id);
  const project = load.state === 'ready' ? load.project : null;
  return (
    <div className="page order-page">
      <NavBar title={t`Sell back`} />
      <OfflineBar />
      {project ? <SellForm project={project} /> : load.state !== 'ready' && <ProjectLoadState load={load} />}
    </div>
  );
}

function SellForm({ project }: { project: Project }) {
  const { t } = useLingui();
  const session = useSession();
  const { info, member } = useUserInfo();
  const { credits } = useCredits(session.login.mem_id, member);
  const [placed, setPlaced] = useState<Order | null>(null);
  const [confirming, setConfirming] = useState(false);
  const holding = credits?.holdings.find((h) => h.project_id === project.id) ?? null;
  const held = holding?.tons ?? 0;
  const sellable = holding?.sellable_tons ?? 0;
  const bounds = { min: 1, max: sellable };
  const tons = useTons(credits ? bounds : null);

  if (placed) return <OrderPlaced order={placed} title={t`Sale placed`} />;

  const price = holding?.buyback_price ?? buybackPrice(project.price, project.yield_bp);
  const proceeds = tons.tons * price;
  const days = settlementDays();
  const grade = info?.grade ?? 0;
  const rights = gradeRights(grade);
  const presaleHeld = holding?.presale_tons ?? 0;

  // Eligibility, in the order a member would want to hear it.
  const reason = !credits
    ? null
    : held === 0
      ? t`You hold no carbon credits of this project yet. Credits arrive when a purchase completes its cycle.`
      : !rights.sellPurchase
        ? t`Selling back is open to members P1 and above; you are P${grade}.`
        : sellable === 0
          ? t`Your credits of this project come from a pre-sale; selling those needs ambassador level (P3) or above.`
          : null;
  const blocked = Boolean(reason) || !member || !info || info.risk || !info.has_withdraw_password || !credits;
  const unit = formatSgd(price);
  const yieldPct = formatYield(project.yield_bp);
  const base = formatSgd(project.price);

  const rows: SummaryRow[] = [
    [t`Buy-back price`, t`${unit} / ton`, { key: 'price' }],
    [t`Quantity`, formatTons(tons.tons), { key: 'tons' }],
    [t`Platform fee`, formatSgd(0), { key: 'fee' }],
    [t`Proceeds`, formatSgd(proceeds), { strong: true, key: 'proceeds', testId: 'sell-proceeds' }],
  ];

  return (
    <>
      <div className="section order-head">
        <ProjectMini project={project} />
      </div>
      <form className="section order-form" onSubmit={(e) => e.preventDefault()} noValidate aria-labelledby="sell-title">
        <h2 className="sr-only" id="sell-title">
          <Trans>Sale details</Trans>
        </h2>
        <AccountGate member={member} info={info} redirect={`/pages/project/dsell?id=${project.id}`} />
        <Summary
          label={t`Your credits of this project`}
          rows={[
            [t`Held`, formatTons(held), { key: 'held', testId: 'credits-held' }],
            [t`From pre-sales`, formatTons(presaleHeld), { key: 'presale' }],
            [t`You may sell now`, formatTons(sellable), { strong: true, key: 'sellable', testId: 'credits-sellable' }],
          ]}
        />
        {reason && (
          <p className="notice notice--warn" role="status" data-testid="sell-eligibility">
            {reason}
          </p>
        )}
        {!reason && presaleHeld > 0 && !rights.sellPresale && (
          <p className="muted">
            <Trans>Credits from pre-sales can be sold by ambassador level (P3) and above; they are not counted as sellable.</Trans>
          </p>
        )}
        {credits && sellable > 0 && (
          <TonsStepper
            id="sell-tons"
            label={<Trans>Tons to sell</Trans>}
            value={tons.text}
            onChange={tons.setText}
            bounds={bounds}
            error={tons.error}
            hint={<Trans>Up to {formatTons(sellable)}</Trans>}
          />
        )}
        {sellable > 0 && <Summary rows={rows} label={t`Sale summary`} />}
        <p className="notice buyback">
          <Trans>
            Platform buy-back price: {base} × (1 + {yieldPct}) = {unit} per ton. The platform's current offer, not a promised return.
          </Trans>
        </p>
        <p className="muted order-explain" data-testid="settlement-note">
          <Trans>
            The proceeds go to your unavailable balance and become available after {days} working days (Singapore working days, public holidays
            excluded).
          </Trans>
        </p>
        <p className="muted">
          <Link to="/pages/profile/tons">
            <Trans>See all my carbon credits</Trans>
          </Link>
        </p>
      </form>
      <div className="action-bar">
        {/* Nothing sellable (0 t held, or none this grade may sell): no price, no amount, a closed button. */}
        <SubmitButton testId="sell-submit" disabled={blocked || !tons.valid || sellable === 0} onClick={() => setConfirming(true)}>
          {sellable > 0 ? (
            <Trans>
              Sell {formatTons(tons.tons)} for {formatSgd(proceeds)}
            </Trans>
          ) : (
            <Trans>Nothing to sell</Trans>
          )}
        </SubmitButton>
      </div>
      <OrderConfirmSheet
        open={confirming}
        onClose={() => setConfirming(false)}
        title={<Trans>Confirm sale</Trans>}
        intent={{ op: 'sell', project_id: project.id, tons: tons.tons }}
        submit={(password, key) => placeSale({ project_id: project.id, tons: tons.tons, password }, key)}
        success={t`Sale placed`}
        onDone={setPlaced}
        confirmLabel={<Trans>Sell {formatTons(tons.tons)}</Trans>}
      >
        <p className="sheet__what">{pick(project, 'name')}</p>
        <Summary rows={rows} testIds={false} />
      </OrderConfirmSheet>
    </>
  );
}
