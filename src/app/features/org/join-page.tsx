import { useEffect, useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import { FormAlert } from '../../components/forms/form-alert';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { useSession } from '../../lib/storage';
import type { OrgInvitation, OrgSummary } from '../../../shared/schemas/org';
import { joinOrg, readInvitation, switchContext } from './api';
import { ROLE_HINTS, ROLE_LABELS } from './labels';
import './org.css';

// /pages/org/join?token=…: the invitation's link. Signed in with the invited email (a personal account),
// the colleague joins, then acts for the organisation; anyone else is asked to log in (or register) and
// comes back here.

export function JoinPage({ token }: { token: string }) {
  const { t } = useLingui();
  return (
    <MemberPage
      title={t`Join an organisation`}
      className="org-page"
      prompt={<Trans>You were invited to act for an organisation on Canopy. Log in, or register first, with the email the invitation was sent to.</Trans>}
    >
      <JoinContent token={token} />
    </MemberPage>
  );
}

function JoinContent({ token }: { token: string }) {
  const { i18n } = useLingui();
  const router = useRouter();
  const session = useSession();
  const write = useWrite(joinOrg);
  const [joined, setJoined] = useState<OrgSummary | null>(null);
  const [switching, setSwitching] = useState(false);
  const [switchError, setSwitchError] = useState('');
  const [invitation, setInvitation] = useState<OrgInvitation | null>(null);
  const [readError, setReadError] = useState('');
  useEffect(() => {
    if (!token) return;
    let live = true;
    void readInvitation(token).then((res) => {
      if (!live) return;
      if (res.code === 0) setInvitation(res.data);
      else setReadError(res.msg);
    });
    return () => {
      live = false;
    };
  }, [token]);
  const onJoin = async () => {
    const res = await write.run({ token });
    if (res?.code === 0 && res.data) setJoined(res.data);
  };
  const actFor = async (org: OrgSummary) => {
    setSwitching(true);
    setSwitchError('');
    try {
      const res = await switchContext(org.account_id);
      if (res.code === 0) void router.navigate({ to: '/pages/org/index', replace: true });
      else setSwitchError(res.msg);
    } finally {
      setSwitching(false);
    }
  };
  if (joined) {
    return (
      <div className="section">
        <div className="card org-join" data-testid="org-joined">
          <h2 className="org-heading org-join__done">
            <span aria-hidden="true" className="done-tick">
              ✓
            </span>
            <Trans>
              You joined {joined.name} as {i18n._(ROLE_LABELS[joined.role])}.
            </Trans>
          </h2>
          <FormAlert id="org-switch-alert" message={switchError} />
          <SubmitButton busy={switching} onClick={() => void actFor(joined)} testId="org-join-act">
            <Trans>Act for {joined.name}</Trans>
          </SubmitButton>
        </div>
      </div>
    );
  }
  return (
    <div className="section">
      <div className="card org-join">
        {invitation ? (
          <div data-testid="org-invitation">
            <h2 className="org-heading">
              <Trans>
                {invitation.name} invited you as {i18n._(ROLE_LABELS[invitation.role])}
              </Trans>
            </h2>
            <p className="muted">
              UEN {invitation.uen} · {i18n._(ROLE_HINTS[invitation.role])}
            </p>
            <p>
              <Trans>
                Joining lets you act for {invitation.name} on Canopy. You are signed in as {session.login.account}.
              </Trans>
            </p>
          </div>
        ) : (
          <p>
            <Trans>You were invited to act for an organisation on Canopy. You are signed in as {session.login.account}.</Trans>
          </p>
        )}
        <FormAlert id="org-join-alert" message={write.error || readError} />
        <SubmitButton busy={write.busy} onClick={() => void onJoin()} testId="org-join-submit" disabled={!token}>
          <Trans>Join</Trans>
        </SubmitButton>
        <Link to="/pages/profile/index" className="btn btn--ghost btn--block">
          <Trans>Not now</Trans>
        </Link>
      </div>
    </div>
  );
}
