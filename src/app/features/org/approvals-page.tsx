import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import { LoadingState } from '../../components/empty-state';
import { showToast } from '../../components/toast';
import { keepNotice } from '../../components/page-notice';
import { useWrite } from '../../components/forms/use-write';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { formatAmount, formatDateTime } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/storage';
import type { ApprovalRequest, ApprovalThresholds } from '../../../shared/schemas/approval';
import type { OrgSummary } from '../../../shared/schemas/org';
import { cancelApproval, decideApproval, refreshApprovals, setThresholds, useApprovals, useOrgMine, useThresholds } from './api';
import { APPROVAL_STATUS_LABELS } from './labels';
import './org.css';

// /pages/org/approvals: the organisation's retirement and withdrawal requests (docs/product.md#approvals),
// waiting first, then the decided ones; approvers and the owner approve or decline others' requests. The
// last copy is kept for offline reading; deciding needs the network.

export function ApprovalsPage() {
  const { t } = useLingui();
  return (
    <MemberPage title={t`Approvals`} className="org-page" prompt={<Trans>Log in to see your organisation.</Trans>}>
      <ApprovalsContent />
    </MemberPage>
  );
}

function ApprovalsContent() {
  const mine = useOrgMine();
  const acting = mine?.acting ?? null;
  const page = useApprovals();
  const limits = useThresholds();
  if (mine === undefined || page === undefined) return <LoadingState />;
  if (!acting) {
    return (
      <div className="section">
        <p className="card org-empty">
          <Trans>Act for an organisation to see its approvals.</Trans>
        </p>
      </div>
    );
  }
  const waiting = page?.list.filter((a) => a.status === 'waiting') ?? [];
  const decided = page?.list.filter((a) => a.status !== 'waiting') ?? [];
  return (
    <div className="section org">
      {limits ? <ThresholdsCard acting={acting} limits={limits} /> : null}
      {!page ? (
        <p className="card org-empty">
          <Trans>No saved requests on this device. Connect to the internet to load them.</Trans>
        </p>
      ) : (
        <>
          <RequestList title={<Trans>Waiting</Trans>} list={waiting} acting={acting} testId="approvals-waiting" />
          <RequestList title={<Trans>Decided</Trans>} list={decided} acting={acting} testId="approvals-decided" />
        </>
      )}
    </div>
  );
}

function RequestList({ title, list, acting, testId }: { title: React.ReactNode; list: ApprovalRequest[]; acting: OrgSummary; testId: string }) {
  return (
    <section className="card org-members">
      <h2 className="org-heading">{title}</h2>
      {list.length === 0 ? (
        <p className="muted">
          <Trans>Nothing yet.</Trans>
        </p>
      ) : (
        <ul className="org-list" data-testid={testId}>
          {list.map((a) => (
            <RequestRow key={a.id} item={a} acting={acting} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** What a request asks for, in the reader's language. */
function What({ item }: { item: ApprovalRequest }) {
  const { i18n } = useLingui();
  const tons = formatAmount(item.tons, 'tons');
  const project = i18n.locale.startsWith('zh') ? item.project_name_cn : item.project_name;
  const amount = formatAmount(item.amount, 'cents');
  const fee = formatAmount(item.fee, 'cents');
  return item.kind === 'retire' ? (
    <Trans>
      Retire {tons} of {project} for {item.beneficiary}
    </Trans>
  ) : (
    <Trans>
      Withdraw {amount} (fee {fee})
    </Trans>
  );
}

function RequestRow({ item, acting }: { item: ApprovalRequest; acting: OrgSummary }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const me = useSession().login.account;
  // The key names the decision, not the password: a retry with another password is the same intent.
  const write = useWrite(decideApproval, (input) => ({ id: input.id, approve: input.approve }));
  const withdrawOwn = useWrite(cancelApproval);
  const [confirming, setConfirming] = useState(false);
  const canCancel = item.status === 'waiting' && item.maker_email === me && (acting.role === 'owner' || acting.role === 'buyer');
  const cancel = async () => {
    const res = await withdrawOwn.run({ id: item.id });
    if (res?.code === 0) showToast(t`Request cancelled.`, 'success');
    else if (res) keepNotice(res.msg, 'error');
    void refreshApprovals();
  };
  const canDecide = item.status === 'waiting' && (acting.role === 'approver' || acting.role === 'owner') && item.maker_email !== me;
  const decline = async () => {
    const res = await write.run({ id: item.id, approve: false });
    if (res?.code === 0) showToast(t`Declined.`, 'success');
    else if (res) keepNotice(res.msg, 'error');
    void refreshApprovals();
  };
  // Approving moves the organisation's money or credits: the sheet asks the approver's payment password and
  // shows a refusal (a wrong password, a weekend) inline.
  const approve = async (password: string): Promise<number | null> => {
    const res = await write.run({ id: item.id, approve: true, password });
    if (res?.code === 0) {
      showToast(t`Approved.`, 'success');
      setConfirming(false);
      void refreshApprovals();
    }
    return res?.code ?? null;
  };
  const until = formatDateTime(item.expires_at);
  return (
    <li className="org-row org-approval" data-testid="approval-item">
      <span className="org-row__main">
        <span className="org-row__name">
          <What item={item} />
        </span>
        <span className="muted org-row__meta">
          <Trans>Asked by {item.maker_email}</Trans> · {formatDateTime(item.created_at)}
        </span>
        <span className="org-row__meta" data-testid="approval-status">
          {i18n._(APPROVAL_STATUS_LABELS[item.status])}
          {item.status === 'waiting' ? <span className="muted"> · {t`until ${until}`}</span> : null}
          {item.decided_by_email ? <span className="muted"> · {item.decided_by_email}</span> : null}
        </span>
        {item.certificate_id ? (
          <a href={`/certificate/${item.certificate_id}`} className="org-row__meta" data-testid="approval-certificate">
            <Trans>View the certificate</Trans>
          </a>
        ) : null}
      </span>
      {canDecide ? (
        <span className="org-row__confirm">
          <button
            type="button"
            className="btn"
            disabled={!online || write.busy}
            onClick={() => {
              write.setError('');
              setConfirming(true);
            }}
            data-testid="approval-approve"
          >
            <Trans>Approve</Trans>
          </button>
          <button type="button" className="btn btn--ghost" disabled={!online || write.busy} onClick={() => void decline()} data-testid="approval-decline">
            <Trans>Decline</Trans>
          </button>
        </span>
      ) : null}
      {canCancel ? (
        <span className="org-row__confirm">
          <button type="button" className="btn btn--ghost" disabled={!online || withdrawOwn.busy} onClick={() => void cancel()} data-testid="approval-cancel">
            <Trans>Cancel request</Trans>
          </button>
        </span>
      ) : null}
      <ConfirmSheet
        open={confirming}
        onClose={() => setConfirming(false)}
        title={<Trans>Approve the request</Trans>}
        password={{
          id: `approve-password-${item.id}`,
          testId: 'payment-password',
          label: <Trans>Your payment password</Trans>,
          hint: <Trans>Approving carries the request out now, in your name.</Trans>,
          missing: t`Enter your payment password.`,
        }}
        busy={write.busy}
        error={write.error}
        confirmLabel={<Trans>Approve</Trans>}
        busyLabel={<Trans>Processing…</Trans>}
        onConfirm={approve}
        testId="approval-confirm"
        submitTestId="approval-confirm-submit"
        closeTestId="approval-confirm-close"
      >
        <p className="sheet__what">
          <What item={item} />
        </p>
      </ConfirmSheet>
    </li>
  );
}

/** The thresholds, which the owner changes here. */
function ThresholdsCard({ acting, limits }: { acting: OrgSummary; limits: ApprovalThresholds }) {
  const { t } = useLingui();
  const online = useOnline();
  const write = useWrite(setThresholds);
  const [tons, setTons] = useState(String(limits.retire_tons));
  const [dollars, setDollars] = useState(String(limits.withdraw_cents / 100));
  const retire = formatAmount(limits.retire_tons, 'tons');
  const withdraw = formatAmount(limits.withdraw_cents, 'cents');
  const save = async () => {
    const input = { retire_tons: Number(tons), withdraw_cents: Math.round(Number(dollars) * 100) };
    const res = await write.run(input);
    if (res?.code === 0) showToast(t`Saved.`, 'success');
    else if (res) keepNotice(res.msg, 'error');
    void refreshApprovals();
  };
  return (
    <section className="card org-members" data-testid="approval-thresholds">
      <h2 className="org-heading">
        <Trans>Thresholds</Trans>
      </h2>
      <p className="muted">
        {limits.withdraw_cents === 0 ? (
          <Trans>A member's retirement of more than {retire}, and every withdrawal, waits for an approver.</Trans>
        ) : (
          <Trans>
            A member's retirement of more than {retire}, or withdrawal of more than {withdraw}, waits for an approver.
          </Trans>
        )}
      </p>
      {acting.role === 'owner' ? (
        <div className="org-thresholds">
          <label className="field">
            <span>
              <Trans>Retirements above (t)</Trans>
            </span>
            <input className="input" inputMode="numeric" value={tons} onChange={(e) => setTons(e.target.value)} />
          </label>
          <label className="field">
            <span>
              <Trans>Withdrawals above (S$)</Trans>
            </span>
            <input className="input" inputMode="decimal" value={dollars} onChange={(e) => setDollars(e.target.value)} />
          </label>
          <button type="button" className="btn btn--ghost btn--block" disabled={!online || write.busy} onClick={() => void save()}>
            <Trans>Save thresholds</Trans>
          </button>
        </div>
      ) : null}
    </section>
  );
}
