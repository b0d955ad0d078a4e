import type { RetireResult } from '../../../shared/schemas/approval';
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { SubmitButton } from '../../components/forms/submit-button';
import { LogInState } from '../../components/empty-state';
import { formatTons } from '../../lib/format';
import { useUserInfo } from '../../lib/user-info';
import type { UserInfo } from '../../../shared/schemas/user';
import { useRetireForm } from './use-retire-form';
import { useApprovalLimit } from './api';
import { BeneficiaryField, CarbonTaxField, PrivacyField, ProjectField, ReasonField, TonsField } from './retire-fields';
import { RetireConfirmSheet } from './retire-confirm';
import { Retired, SentForApproval } from './retired';
import './retire.css';

// /pages/profile/retire?project_id= : retire whole tons of a holding for a beneficiary. Permanent: the
// confirm sheet says so (or, above the organisation's threshold, that it goes to an approver), and asks for
// the payment password. Tons pending sale are already out of the
// holding; the form says how many are pending so the figure is not a surprise (docs/product.md#retirement).

export function RetirePage({ projectId }: { projectId?: number }) {
  const { t } = useLingui();
  const { info, member } = useUserInfo();
  const [done, setDone] = useState<RetireResult | null>(null);
  return (
    <div className="page retire-page">
      <NavBar title={t`Retire credits`} />
      <OfflineBar />
      {!member ? (
        <LogInState redirect="/pages/profile/retire">
          <Trans>Log in to retire your carbon credits.</Trans>
        </LogInState>
      ) : done && 'approval' in done ? (
        <SentForApproval tons={done.approval.tons} />
      ) : done ? (
        <Retired answer={done} />
      ) : (
        <RetireForm info={info} projectId={projectId} onDone={setDone} />
      )}
    </div>
  );
}

function RetireForm({ info, projectId, onDone }: { info: UserInfo | null | undefined; projectId?: number; onDone: (a: RetireResult) => void }) {
  const { t } = useLingui();
  const form = useRetireForm(info, projectId, onDone);
  const approvalLimit = useApprovalLimit(true);
  const { holdings, fields, errors, touched, noPassword } = form;

  if (form.loadError && !holdings) return <p className="empty">{form.loadError}</p>;
  if (!holdings) return <p className="empty">{t`Loading…`}</p>;
  if (holdings.length === 0) return <NothingToRetire />;

  const show = (msg: string) => (touched ? msg : '');
  const { tons } = fields;
  const amount = Number.isInteger(tons) ? formatTons(tons) : '';
  return (
    <>
      <form
        id="retire-form"
        className="section retire-form"
        noValidate
        aria-labelledby="retire-title"
        onSubmit={(e) => {
          e.preventDefault();
          form.submit();
        }}
      >
        <h2 className="sr-only" id="retire-title">
          <Trans>Retirement details</Trans>
        </h2>
        <p className="notice">
          <Trans>Retiring a credit uses it to offset emissions on the beneficiary's behalf. A public certificate is issued; retired credits can never be sold or returned.</Trans>
        </p>
        <ProjectField holdings={holdings} project={form.project} onProject={form.setProject} held={form.held} pendingSale={form.pendingSale} />
        <TonsField value={fields.tonsText} onChange={fields.setTonsText} error={show(errors.tons)} />
        <BeneficiaryField value={fields.name} onChange={fields.setBeneficiary} error={show(errors.name)} />
        <ReasonField reason={fields.reason} onChange={fields.setReason} error={errors.reason} />
        <PrivacyField hidden={fields.hidden} onChange={fields.setHidden} />
        <CarbonTaxField year={fields.iccYear} onChange={fields.setIccYear} />
        {noPassword && (
          <p className="notice notice--warn">
            <Trans>
              Set your payment password first. <Link to="/pages/profile/withdpwd">Set it now</Link>
            </Trans>
          </p>
        )}
      </form>
      {/* A pinned footer, as on the other action screens: a child of the page, submitting the form by its id. */}
      <div className="action-bar">
        <SubmitButton form="retire-form" testId="retire-submit" disabled={noPassword || (touched && !form.valid)}>
          {Number.isInteger(tons) && tons > 0 ? <Trans>Retire {amount}</Trans> : <Trans>Retire</Trans>}
        </SubmitButton>
      </div>
      <RetireConfirmSheet
        open={form.confirming}
        onClose={form.closeConfirm}
        onConfirm={form.confirm}
        busy={form.write.busy}
        error={form.write.error}
        holding={form.holding}
        tons={tons}
        name={fields.name}
        reason={fields.reason}
        hidden={fields.hidden}
        iccYear={fields.iccYear}
        approvalLimit={approvalLimit}
      />
    </>
  );
}

function NothingToRetire() {
  return (
    <div className="empty" data-testid="retire-empty">
      <p>
        <Trans>You hold no carbon credits yet. Credits arrive when a purchase completes its cycle.</Trans>
      </p>
      <div className="retire-empty__actions">
        <Link to="/pages/project/index" className="btn">
          <Trans>Browse projects</Trans>
        </Link>
        <Link to="/pages/profile/certificates" className="btn btn--ghost">
          <Trans>My certificates</Trans>
        </Link>
      </div>
    </div>
  );
}
