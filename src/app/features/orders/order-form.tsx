import { useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pick } from '../../lib/format';
import { statusLabel } from '../../lib/project-labels';
import { useLimits } from '../../lib/order-limits';
import { useUserInfo } from '../../lib/user-info';
import { SubmitButton } from '../../components/forms/submit-button';
import type { Order } from '../../../shared/schemas/order';
import type { Project } from '../../../shared/schemas/content';
import type { TonsInput, WriteOutcome } from './api';
import { tonsBounds } from './order-calc';
import { AccountGate, OrderCard, OrderConfirmSheet, RemainingLimits, Summary, TonsStepper, type SummaryRow } from './order-parts';
import { useTons } from './use-tons';

// What the buy and the pre-sale booking forms share: the member, the limits and the tons they allow, the
// project card, the form (account gate, why it is blocked, the tons stepper, summary, balance), the action
// bar and the password sheet. Each page keeps its own prices, reasons and texts.

/** The state of an order form for `project`: who orders, the limits, the tons chosen and the order once placed. */
export function useOrderForm(project: Project, initialTons?: number) {
  const { t } = useLingui();
  const { info, member } = useUserInfo();
  const { limits } = useLimits(project.id, member);
  const [placed, setPlaced] = useState<Order | null>(null);
  const bounds = tonsBounds(project, limits);
  const tons = useTons(bounds, initialTons);
  const available = info?.wallet?.available ?? null;
  /** The reasons both forms give after their own: the member's limit on the project, then the membership grade. */
  const limitReason =
    bounds.max < bounds.min
      ? t`You have reached your limit on this project for now.`
      : info && info.grade < project.required_grade
        ? t`This project needs membership P${project.required_grade}; you are P${info.grade}.`
        : null;
  return { info, member, limits, bounds, tons, available, placed, setPlaced, limitReason };
}

export type OrderFormState = ReturnType<typeof useOrderForm>;

export function ProjectMini({ project }: { project: Project }) {
  const { i18n } = useLingui();
  return (
    <Link to="/pages/project/project" search={{ id: project.id }} className="order-project card" data-testid="order-project">
      <img src={project.image} alt="" width={72} height={72} className="order-project__img" />
      <span className="order-project__body">
        <span className={`status status--${project.status}`}>{i18n._(statusLabel[project.status])}</span>
        <span className="order-project__name">{pick(project, 'name')}</span>
        <span className="muted order-project__meta">
          {pick(project, 'location')} · {project.standard}
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
        <span aria-hidden="true" className="done-tick">
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

/**
 * The page body of an order form. `form` ('buy' | 'book') names the ids, test ids and the intent's op;
 * `before` goes between the project card and the form, `children` at the end of the form.
 */
export function OrderForm({
  form,
  project,
  state,
  title,
  redirect,
  reason,
  tonsLabel,
  tonsHint,
  rows,
  summaryLabel,
  short,
  shortNotice,
  before,
  children,
  submitLabel,
  sheet,
}: {
  form: 'buy' | 'book';
  project: Project;
  state: OrderFormState;
  title: ReactNode;
  redirect: string;
  reason: string | null;
  tonsLabel: ReactNode;
  tonsHint: ReactNode;
  rows: SummaryRow[];
  summaryLabel: string;
  short: boolean;
  shortNotice: ReactNode;
  before?: ReactNode;
  children?: ReactNode;
  submitLabel: ReactNode;
  sheet: { title: ReactNode; place: (input: TonsInput, key: string) => Promise<WriteOutcome>; success: string; confirmLabel: ReactNode };
}) {
  const { info, member, limits, bounds, tons, available, setPlaced } = state;
  const [confirming, setConfirming] = useState(false);
  const blocked = Boolean(reason) || !member || !info || info.risk || !info.has_withdraw_password;
  return (
    <>
      <div className="section order-head">
        <ProjectMini project={project} />
      </div>
      {before}
      <form className="section order-form" onSubmit={(e) => e.preventDefault()} noValidate aria-labelledby={`${form}-title`}>
        <h2 className="sr-only" id={`${form}-title`}>
          {title}
        </h2>
        <AccountGate member={member} info={info} redirect={redirect} />
        {reason && (
          <p className="notice notice--warn" role="status" data-testid="order-block">
            {reason}
          </p>
        )}
        <TonsStepper id={`${form}-tons`} label={tonsLabel} value={tons.text} onChange={tons.setText} bounds={bounds} error={tons.error} hint={tonsHint} />
        {limits && <RemainingLimits limits={limits} />}
        <Summary rows={rows} label={summaryLabel} available={available} />
        {short && (
          <p className="notice notice--warn" role="status">
            {shortNotice}
          </p>
        )}
        {children}
      </form>
      <div className="action-bar">
        <SubmitButton testId={`${form}-submit`} disabled={blocked || !tons.valid || short} onClick={() => setConfirming(true)}>
          {submitLabel}
        </SubmitButton>
      </div>
      <OrderConfirmSheet
        open={confirming}
        onClose={() => setConfirming(false)}
        title={sheet.title}
        intent={{ op: form, project_id: project.id, tons: tons.tons }}
        submit={(password, key) => sheet.place({ project_id: project.id, tons: tons.tons, password }, key)}
        success={sheet.success}
        onDone={setPlaced}
        confirmLabel={sheet.confirmLabel}
      >
        <p className="sheet__what">{pick(project, 'name')}</p>
        <Summary rows={rows} testIds={false} />
      </OrderConfirmSheet>
    </>
  );
}
