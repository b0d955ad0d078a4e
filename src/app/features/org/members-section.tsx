import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { keepNotice } from '../../components/page-notice';
import './org.css';
import { InputField } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { useSchemaForm } from '../../lib/form';
import { useOnline } from '../../lib/online';
import { formatDate } from '../../lib/format';
import { localeToWire, type Locale } from '../../../shared/api';
import { MEMBER_ROLES, orgInviteSchema, type OrgMember, type OrgSummary } from '../../../shared/schemas/org';
import { changeRole, refreshOrgMembers, removeMember, sendInvite, useOrgMembers } from './api';
import { ROLE_HINTS, ROLE_LABELS } from './labels';

// The members of the organisation acted for; owner and admins also invite, change roles and remove.

export function MembersSection({ acting }: { acting: OrgSummary }) {
  const { t } = useLingui();
  const manages = acting.role === 'owner' || acting.role === 'admin';
  const data = useOrgMembers();
  return (
    <>
      <section className="card org-members" aria-label={t`Members`}>
        <h2 className="org-heading">
          <Trans>Members</Trans>
        </h2>
        {data === undefined ? null : !data ? (
          <p className="muted">
            <Trans>No saved members on this device. Connect to the internet to load them.</Trans>
          </p>
        ) : (
          <ul className="org-list" data-testid="org-members">
            {data.members.map((m) => (
              <MemberRow key={m.user_id} member={m} manages={manages} />
            ))}
          </ul>
        )}
        {manages && data && data.invitations.length > 0 ? (
          <>
            <h3 className="org-subheading">
              <Trans>Pending invitations</Trans>
            </h3>
            <ul className="org-list" data-testid="org-invitations">
              {data.invitations.map((i) => (
                <li key={i.id} className="org-row">
                  <span className="org-row__main">{i.email}</span>
                  <RoleName role={i.role} />
                  <span className="muted org-row__meta">
                    <Trans>until {formatDate(i.expires_at)}</Trans>
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      {manages ? <InviteForm /> : null}
    </>
  );
}

function RoleName({ role }: { role: OrgMember['role'] }) {
  const { i18n } = useLingui();
  return (
    <span className={`org-role org-role--${role}`} data-testid="org-member-role">
      {i18n._(ROLE_LABELS[role])}
    </span>
  );
}

function MemberRow({ member, manages }: { member: OrgMember; manages: boolean }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const roleWrite = useWrite(changeRole);
  const removeWrite = useWrite(removeMember);
  const [confirming, setConfirming] = useState(false);
  const editable = manages && member.role !== 'owner';
  const onRole = async (role: string) => {
    const res = await roleWrite.run({ user_id: member.user_id, role });
    if (res && res.code !== 0) keepNotice(res.msg, 'error');
    void refreshOrgMembers();
  };
  const onRemove = async () => {
    const res = await removeWrite.run({ user_id: member.user_id });
    setConfirming(false);
    void refreshOrgMembers();
    if (res?.code === 0) showToast(t`${member.email} was removed.`, 'success');
    else if (res) keepNotice(res.msg, 'error');
  };
  return (
    <li className="org-row" data-testid="org-member">
      <span className="org-row__main">
        <span className="org-row__name">{member.name || member.email}</span>
        {member.name ? <span className="muted org-row__meta">{member.email}</span> : null}
      </span>
      {editable ? (
        <select
          className="input org-row__select"
          aria-label={t`Role of ${member.email}`}
          value={member.role}
          disabled={!online || roleWrite.busy}
          onChange={(e) => void onRole(e.target.value)}
        >
          {MEMBER_ROLES.map((r) => (
            <option key={r} value={r}>
              {i18n._(ROLE_LABELS[r])}
            </option>
          ))}
        </select>
      ) : (
        <RoleName role={member.role} />
      )}
      {editable ? (
        confirming ? (
          <span className="org-row__confirm">
            <button type="button" className="btn btn--danger" disabled={!online || removeWrite.busy} onClick={() => void onRemove()} data-testid="org-remove-confirm">
              <Trans>Remove</Trans>
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => setConfirming(false)}>
              <Trans>Keep</Trans>
            </button>
          </span>
        ) : (
          <button type="button" className="btn btn--ghost org-row__remove" disabled={!online} onClick={() => setConfirming(true)} aria-label={t`Remove ${member.email}`} data-testid="org-remove">
            <Trans>Remove</Trans>
          </button>
        )
      ) : null}
    </li>
  );
}

const FORM = 'org-invite';

function InviteForm() {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const form = useSchemaForm(FORM, orgInviteSchema, { email: '', role: 'buyer' as string }, lang);
  const write = useWrite(sendInvite);
  const [sentTo, setSentTo] = useState('');
  const { values, set, errors, a11y } = form;
  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSentTo('');
    const input = form.check();
    if (!input) return;
    const res = await write.run(input);
    if (res?.code === 0) {
      // The field is emptied for the next colleague: not an error until the next send.
      form.reset({ email: '', role: input.role });
      setSentTo(input.email);
      void refreshOrgMembers();
    }
  };
  return (
    <form className="card org-invite" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={t`Invite a colleague`}>
      <h2 className="org-heading">
        <Trans>Invite a colleague</Trans>
      </h2>
      <InputField
        label={<Trans>Email</Trans>}
        form={FORM}
        errors={errors}
        a11y={a11y('email')}
        testId="org-invite-email"
        type="email"
        autoComplete="off"
        value={values.email}
        onChange={(x) => set('email', x.trim())}
      />
      <fieldset className="org-roles">
        <legend className="field__label">
          <Trans>Role</Trans>
        </legend>
        {MEMBER_ROLES.map((r) => (
          <label key={r} className="org-roles__option">
            <input type="radio" name="role" value={r} checked={values.role === r} onChange={() => set('role', r)} data-testid={`org-invite-role-${r}`} />
            <span>
              <span className="org-roles__name">{i18n._(ROLE_LABELS[r])}</span>
              <span className="muted org-roles__hint">{i18n._(ROLE_HINTS[r])}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <FormAlert id={`${FORM}-alert`} message={write.error} />
      {sentTo ? (
        <p className="notice notice--ok" role="status" data-testid="org-invite-sent">
          <Trans>Invitation sent to {sentTo}. It waits under Pending invitations until they join.</Trans>
        </p>
      ) : null}
      <SubmitButton busy={write.busy} testId="org-invite-submit">
        <Trans>Send invitation</Trans>
      </SubmitButton>
    </form>
  );
}
