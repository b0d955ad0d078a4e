import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import { LoadingState } from '../../components/empty-state';
import { clearKeptError, keepNotice } from '../../components/page-notice';
import { formatAmount, formatDateTime, pick } from '../../lib/format';
import { useOnline } from '../../lib/online';
import type { OrgActivity } from '../../../shared/schemas/org';
import { downloadActivityCsv, useOrgActivity, useOrgMine } from './api';
import { ACTION_LABELS, ASKED_LABELS, TESTED_LABELS } from './labels';
import './org.css';

// /pages/org/activity: who did what, when and for how much, for owner and admins, newest first (the last
// copy is kept for offline reading); the whole log downloads as CSV.

export function ActivityPage() {
  const { t } = useLingui();
  return (
    <MemberPage title={t`Activity log`} className="org-page" prompt={<Trans>Log in to see your organisation.</Trans>}>
      <ActivityContent />
    </MemberPage>
  );
}

function ActivityContent() {
  const mine = useOrgMine();
  const allowed = !!mine?.acting && (mine.acting.role === 'owner' || mine.acting.role === 'admin');
  const page = useOrgActivity(allowed);
  const online = useOnline();
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  if (mine === undefined || (allowed && page === undefined)) return <LoadingState />;
  if (!allowed) {
    return (
      <div className="section">
        <p className="card org-empty">
          <Trans>Only the owner and admins of an organisation see its activity log.</Trans>
        </p>
      </div>
    );
  }
  const exportCsv = async () => {
    setBusy(true);
    clearKeptError();
    try {
      const blob = await downloadActivityCsv();
      if (!blob) return keepNotice(t`The export failed. Please try again.`, 'error');
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = 'canopy-activity.csv';
      a.click();
      URL.revokeObjectURL(a.href);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="section org">
      <button type="button" className="btn btn--ghost btn--block" disabled={!online || busy} onClick={() => void exportCsv()} data-testid="org-activity-csv">
        <Trans>Export CSV</Trans>
      </button>
      {!page || page.list.length === 0 ? (
        <p className="card org-empty">{page ? <Trans>Nothing yet.</Trans> : <Trans>No saved activity on this device. Connect to the internet to load it.</Trans>}</p>
      ) : (
        <ul className="card org-list" data-testid="org-activity">
          {page.list.map((a) => (
            <ActivityRow key={a.id} item={a} />
          ))}
        </ul>
      )}
    </div>
  );
}

type Detail = { request?: Record<string, unknown>; result?: Record<string, unknown> };

function parsed(detail: string): Detail {
  try {
    return JSON.parse(detail) as Detail;
  } catch {
    return {};
  }
}

/** What an action names: whom it concerned, the tons asked for and the money it moved. */
function amounts(d: Detail): string {
  const parts: string[] = [];
  const email = d.request?.email;
  if (typeof email === 'string') parts.push(email);
  const tons = d.request?.tons ?? d.result?.tons;
  if (typeof tons === 'number' && tons > 0) parts.push(formatAmount(tons, 'tons'));
  const cents = d.result?.total ?? d.request?.amount ?? d.result?.amount;
  if (typeof cents === 'number' && cents > 0) parts.push(formatAmount(cents, 'cents'));
  return parts.join(' · ');
}

/** The request a decision concerned (approve, decline, cancel): its number and, for a retirement, the project. */
function RequestNamed({ d }: { d: Detail }) {
  const id = d.request?.id ?? d.result?.id;
  if (typeof id !== 'number') return null;
  const r = d.result ?? {};
  const project = typeof r.project_name === 'string' ? pick(r, 'project_name') : '';
  return (
    <span className="muted org-row__meta" data-testid="org-activity-request">
      {r.kind === 'withdraw' ? <Trans>Request #{id}: withdrawal</Trans> : project ? <Trans>Request #{id}: retire credits, {project}</Trans> : <Trans>Request #{id}</Trans>}
    </span>
  );
}

/** Whether the write only asked for an approval (docs/product.md#approvals): its answer names the request. */
function sentForApproval(detail: string): boolean {
  try {
    return typeof (JSON.parse(detail) as { result?: { approval_id?: unknown } }).result?.approval_id === 'number';
  } catch {
    return false;
  }
}

/** Whether a key's write was a test key's (play money): its answer says `mode: test`. */
function testMode(detail: string): boolean {
  try {
    return (JSON.parse(detail) as { result?: { mode?: unknown } }).result?.mode === 'test';
  } catch {
    return false;
  }
}

function ActivityRow({ item }: { item: OrgActivity }) {
  const { i18n } = useLingui();
  const d = parsed(item.detail);
  const label = (sentForApproval(item.detail) ? ASKED_LABELS[item.action] : undefined) ?? (testMode(item.detail) ? TESTED_LABELS[item.action] : undefined) ?? ACTION_LABELS[item.action];
  return (
    <li className="org-row" data-testid="org-activity-item">
      <span className="org-row__main">
        <span className="org-row__name">{label ? i18n._(label) : item.action}</span>
        {item.action.startsWith('approval.') && item.action !== 'approval.thresholds' ? <RequestNamed d={d} /> : null}
        <span className="muted org-row__meta">{item.member_email}</span>
        <time className="muted org-row__meta" data-testid="org-activity-time" dateTime={new Date(item.created_at).toISOString()}>
          {formatDateTime(item.created_at)}
        </time>
      </span>
      <span className="org-row__amount">{amounts(d)}</span>
    </li>
  );
}
