import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { CycleText } from '../../components/cycle-text';
import { formatSgd, formatTons } from '../../lib/format';
import type { Project } from '../../../shared/schemas/content';
import { ProjectLoadState } from '../../components/project-load-state';
import { useProject } from '../../lib/project';
import { joinBlockLabel, statusLabel } from '../../lib/project-labels';
import { placeBuy } from './api';
import { orderTotal } from './order-calc';
import type { SummaryRow } from './order-parts';
import { OrderForm, OrderPlaced, useOrderForm } from './order-form';
import './orders.css';

// /pages/project/dproject?id= : buy a project by the ton.

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
  const state = useOrderForm(project, initialTons);
  const { bounds, tons, available, placed, limitReason } = state;

  if (placed) return <OrderPlaced order={placed} title={t`Order placed`} />;

  const total = orderTotal(tons.tons, project.price);
  const short = available !== null && tons.valid && total > available;
  const reason = project.join_block
    ? i18n._(joinBlockLabel[project.join_block])
    : project.status !== 'in_progress'
      ? project.status === 'presale'
        ? t`This project is in pre-sale: book it instead.`
        : i18n._(statusLabel[project.status])
      : limitReason;
  const price = formatSgd(project.price);

  const rows: SummaryRow[] = [
    [t`Unit price`, t`${price} / ton`, { key: 'price' }],
    [t`Quantity`, formatTons(tons.tons), { key: 'tons' }],
    [t`Platform fee`, formatSgd(0), { key: 'fee' }],
    [t`Total`, formatSgd(total), { strong: true, key: 'total', testId: 'order-total' }],
  ];

  return (
    <OrderForm
      form="buy"
      project={project}
      state={state}
      title={<Trans>Order details</Trans>}
      redirect={`/pages/project/dproject?id=${project.id}`}
      reason={reason}
      tonsLabel={<Trans>Quantity (tons)</Trans>}
      tonsHint={
        <Trans>
          Per order {formatTons(project.min_tons)} – {formatTons(bounds.max >= bounds.min ? bounds.max : project.max_tons)}
        </Trans>
      }
      rows={rows}
      summaryLabel={t`Order summary`}
      short={short}
      shortNotice={<Trans>Your available balance is not enough for this order.</Trans>}
      submitLabel={<Trans>Buy {formatTons(tons.tons)} for {formatSgd(total)}</Trans>}
      sheet={{ title: <Trans>Confirm purchase</Trans>, place: placeBuy, success: t`Order placed`, confirmLabel: <Trans>Pay {formatSgd(total)}</Trans> }}
    >
      <p className="muted order-explain">
        <Trans>
          After payment the order is in progress for <CycleText project={project} />; then the tons are added to your carbon credit balance.
        </Trans>
      </p>
    </OrderForm>
  );
}
