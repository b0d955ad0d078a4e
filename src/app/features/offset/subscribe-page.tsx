import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { SubmitButton } from '../../components/forms/submit-button';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { WrapSelect } from '../../components/forms/wrap-select';
import { EmptyState, LoadingState, LogInState } from '../../components/empty-state';
import { formatDate, formatSgd, formatTons, pick } from '../../lib/format';
import { useMemberId, useUserInfo } from '../../lib/user-info';
import { useOnline } from '../../lib/online';
import type { OffsetPlan } from '../../../shared/schemas/offset';
import { useOffsetPlans } from './api';
import { usePlanForm } from './use-plan-form';
import './offset.css';

// /pages/profile/offset?project_id=&tons=&id= : set up a monthly offset (from the footprint result or a
// project page), or change one (id). The consent text is the one the server keeps with the plan; the
// payment password confirms it once (docs/product.md#monthly-offset).

const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

export function SubscribePage({ projectId, tons, planId }: { projectId?: number; tons?: number; planId?: number }) {
  const { t } = useLingui();
  const { member } = useUserInfo();
  const memId = useMemberId();
  const { list } = useOffsetPlans(planId ? memId : 0);
  const plan = planId ? list?.find((p) => p.id === planId) : undefined;
  return (
    <div className="page offset-page">
      <NavBar title={planId ? t`Change monthly offset` : t`Offset every month`} />
      <OfflineBar />
      {!member ? (
        <LogInState redirect="/pages/profile/offsets">
          <Trans>Log in to offset your footprint every month.</Trans>
        </LogInState>
      ) : planId && !plan ? (
        list === undefined ? <LoadingState /> : <EmptyState>{t`This monthly offset does not exist.`}</EmptyState>
      ) : (
        <PlanForm memId={memId} projectId={projectId} tons={tons} plan={plan} />
      )}
    </div>
  );
}

function PlanForm({ memId, projectId, tons, plan }: { memId: number; projectId?: number; tons?: number; plan?: OffsetPlan }) {
  const { t } = useLingui();
  const { info } = useUserInfo();
  const online = useOnline();
  const form = usePlanForm(memId, { projectId, tons, plan });
  const { project, fields } = form;
  if (form.loading) return <LoadingState />;
  if (!project) return <EmptyState>{online ? t`No project is selling right now. Check the project tab later.` : t`The projects you can buy show here when you are online.`}</EmptyState>;
  const noPassword = Boolean(info && !info.has_withdraw_password);
  return (
    <>
      <form
        id="offset-form"
        className="section offset-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          form.submit();
        }}
      >
        <p className="notice">
          <Trans>Each month Canopy buys the tons you choose from your available balance, as if you bought them yourself. You can pause, change or cancel at any time.</Trans>
        </p>
        <div className="field">
          <label className="field__label" htmlFor="offset-project">
            <Trans>Project</Trans>
          </label>
          <WrapSelect shown={pick(project, 'name')} id="offset-project" value={project.id} disabled={Boolean(plan)} onChange={(e) => form.setProject(Number(e.target.value))} data-testid="offset-project">
            {(form.projects ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {pick(p, 'name')}
              </option>
            ))}
          </WrapSelect>
        </div>
        <TonsField text={fields.tonsText} setText={fields.setTonsText} tons={fields.tons} price={project.price} error={form.tonsError} />
        <DayField day={fields.day} setDay={fields.setDay} first={form.first} />
        <div className="field">
          <p className="field__label">
            <Trans>Your consent</Trans>
          </p>
          <p className="offset-consent" data-testid="offset-consent">
            {form.consent}
          </p>
        </div>
        {noPassword && (
          <p className="notice notice--warn">
            <Trans>
              Set your payment password first. <Link to="/pages/profile/withdpwd">Set it now</Link>
            </Trans>
          </p>
        )}
      </form>
      <div className="action-bar">
        <SubmitButton form="offset-form" testId="offset-submit" disabled={noPassword}>
          {plan ? <Trans>Save changes</Trans> : <Trans>Agree and set up</Trans>}
        </SubmitButton>
      </div>
      <PlanConfirm form={form} changing={Boolean(plan)} />
    </>
  );
}

function TonsField({ text, setText, tons, price, error }: { text: string; setText: (t: string) => void; tons: number; price: number; error: string }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor="offset-tons">
        <Trans>Tons each month</Trans>
      </label>
      <input id="offset-tons" className="input" inputMode="numeric" value={text} onChange={(e) => setText(e.target.value.replace(/\D/g, ''))} aria-invalid={error ? true : undefined} aria-describedby={error ? 'offset-tons-error' : 'offset-tons-hint'} data-testid="offset-tons" />
      {error ? (
        <p className="field__error" id="offset-tons-error">
          {error}
        </p>
      ) : (
        <p className="field__hint" id="offset-tons-hint">
          {Number.isInteger(tons) && tons > 0 ? <Trans>About {formatSgd(tons * price)} a month at today's price.</Trans> : null}
        </p>
      )}
    </div>
  );
}

/** The last step: what is set up, and the payment password, asked this once. */
function PlanConfirm({ form, changing }: { form: ReturnType<typeof usePlanForm>; changing: boolean }) {
  const { t } = useLingui();
  const { project, fields } = form;
  if (!project) return null;
  return (
    <ConfirmSheet
      open={form.confirming}
      onClose={form.closeConfirm}
      title={changing ? <Trans>Confirm the change</Trans> : <Trans>Confirm your monthly offset</Trans>}
      password={{ id: 'offset-password', testId: 'payment-password', label: <Trans>Payment password</Trans>, hint: <Trans>Asked once now, not every month.</Trans>, missing: t`Enter your payment password.` }}
      busy={form.write.busy}
      error={form.write.error}
      confirmLabel={<Trans>Confirm</Trans>}
      busyLabel={<Trans>Processing…</Trans>}
      onConfirm={form.confirm}
      testId="confirm-sheet"
      submitTestId="confirm-submit"
      closeTestId="confirm-close"
    >
      <p className="sheet__what">{pick(project, 'name')}</p>
      <p data-testid="confirm-summary">
        <Trans>
          {formatTons(Number.isInteger(fields.tons) ? fields.tons : 0)} on day {fields.day} of each month, first on {formatDate(form.first)}.
        </Trans>
      </p>
    </ConfirmSheet>
  );
}

function DayField({ day, setDay, first }: { day: number; setDay: (d: number) => void; first: number }) {
  const { t } = useLingui();
  return (
    <div className="field">
      <label className="field__label" htmlFor="offset-day">
        <Trans>Day of the month</Trans>
      </label>
      <WrapSelect shown={t`Day ${day}`} id="offset-day" value={day} onChange={(e) => setDay(Number(e.target.value))} data-testid="offset-day">
        {DAYS.map((d) => (
          <option key={d} value={d}>
            {t`Day ${d}`}
          </option>
        ))}
      </WrapSelect>
      <p className="field__hint" data-testid="offset-first">
        {day >= 29 ? <Trans>In a shorter month, the last day. First buy on {formatDate(first)}, 9:00 am Singapore time.</Trans> : <Trans>First buy on {formatDate(first)}, 9:00 am Singapore time.</Trans>}
      </p>
    </div>
  );
}
