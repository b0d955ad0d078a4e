import { useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import { LoadingState } from '../../components/empty-state';
import { clearKeptError, keepNotice } from '../../components/page-notice';
import { useOnline } from '../../lib/online';
import type { OrgMine, OrgSummary } from '../../../shared/schemas/org';
import { switchContext, useOrgMine } from './api';
import { ROLE_LABELS } from './labels';
import { MembersSection } from './members-section';
import './org.css';

// /pages/org/index: the organisation screen (docs/product.md#organisations): which organisation this
// session acts for and the switch between them, the members and, for owner and admins, invitations and the
// activity log.

export function OrgPage() {
  const { t } = useLingui();
  return (
    <MemberPage title={t`Organisation`} className="org-page" prompt={<Trans>Log in to see your organisation.</Trans>}>
      <OrgContent />
    </MemberPage>
  );
}

function OrgContent() {
  const mine = useOrgMine();
  if (mine === undefined) return <LoadingState />;
  if (!mine || mine.list.length === 0) {
    return (
      <div className="section">
        <p className="card org-empty" data-testid="org-empty">
          <Trans>You are not in an organisation. A company registers a corporate account; its owner then invites colleagues by email.</Trans>
        </p>
      </div>
    );
  }
  return (
    <div className="section org">
      <ContextCard mine={mine} />
      {mine.acting ? <MembersSection acting={mine.acting} /> : null}
      {mine.acting ? (
        <Link to="/pages/org/approvals" className="btn btn--ghost btn--block" data-testid="org-approvals-link">
          <Trans>Approvals</Trans>
        </Link>
      ) : null}
      {mine.acting && (mine.acting.role === 'owner' || mine.acting.role === 'admin') ? (
        <Link to="/pages/org/activity" className="btn btn--ghost btn--block" data-testid="org-activity-link">
          <Trans>Activity log</Trans>
        </Link>
      ) : null}
    </div>
  );
}

/** Which account this session acts for, and buttons to act for another one. */
function ContextCard({ mine }: { mine: OrgMine }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const go = async (accountId: number | null) => {
    setBusy(true);
    clearKeptError();
    try {
      const res = await switchContext(accountId);
      if (res.code !== 0) keepNotice(res.msg, 'error');
      else void router.navigate({ to: '/pages/org/index', replace: true });
    } finally {
      setBusy(false);
    }
  };
  const acting = mine.acting;
  const others = mine.list.filter((o) => o.account_id !== acting?.account_id && o.role !== 'owner');
  return (
    <div className="card org-context" data-testid="org-context">
      {acting ? (
        <>
          <p className="org-context__label">
            <Trans>Acting for</Trans>
          </p>
          <h2 className="org-context__name" data-testid="org-name">
            {acting.name}
          </h2>
          <p className="muted">
            <Trans>UEN {acting.uen}</Trans> · <span data-testid="org-role">{i18n._(ROLE_LABELS[acting.role])}</span>
          </p>
        </>
      ) : (
        <p className="org-context__label">
          <Trans>Acting as yourself</Trans>
        </p>
      )}
      {others.map((o: OrgSummary) => (
        <button key={o.account_id} type="button" className="btn btn--block" disabled={!online || busy} onClick={() => void go(o.account_id)} data-testid="org-act-for">
          {t`Act for ${o.name}`}
        </button>
      ))}
      {acting && acting.role !== 'owner' ? (
        <button type="button" className="btn btn--ghost btn--block" disabled={!online || busy} onClick={() => void go(null)} data-testid="org-act-self">
          <Trans>Back to my own account</Trans>
        </button>
      ) : null}
    </div>
  );
}
