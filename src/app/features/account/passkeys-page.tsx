import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { useSchemaForm } from '../../lib/form';
import { formatDateTime } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { useMemberId } from '../../lib/user-info';
import { localeToWire, type Locale } from '../../../shared/api';
import { PASSKEY_NAME_MAX_LENGTH } from '../../../shared/constants';
import { isIpHost } from '../../../shared/hosts';
import { passkeyFormSchema, type PasskeyItem } from '../../../shared/schemas/passkey';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { FreshAfterSuccess } from '../../components/forms/fresh-after-success';
import { PasswordField } from '../../components/forms/password-field';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { AccountPage } from './account-page';
import { addPasskey, removePasskey, usePasskeys } from './passkeys-api';

// /pages/profile/passkeys: the member's passkeys (name, added, last used; readable offline), removing one,
// and adding one with the login password first (docs/product.md#passkeys).

const FORM = 'passkey';

export function PasskeysPage() {
  const { t } = useLingui();
  const memId = useMemberId();
  const { list, reload } = usePasskeys(memId);
  return (
    <AccountPage title={t`Passkeys`}>
      <div className="section">
        <p className="muted account-notice">
          <Trans>Sign in with your fingerprint, face or screen lock instead of typing your password. Your payment password is still asked whenever money moves.</Trans>
        </p>
        {/* At an IP address no passkey can be added here: an empty list's "add one below" would mislead. */}
        {isIpHost(window.location.hostname) && list?.length === 0 ? null : <PasskeyList list={list} onRemoved={reload} />}
        <FreshAfterSuccess onSuccess={() => void reload()}>{(done) => <AddPasskeyForm onDone={done} />}</FreshAfterSuccess>
      </div>
    </AccountPage>
  );
}

function PasskeyList({ list, onRemoved }: { list: PasskeyItem[] | null | undefined; onRemoved: () => Promise<unknown> }) {
  const { t } = useLingui();
  const online = useOnline();
  if (list === undefined) return null;
  // Never loaded on this device: offline, nothing is known, so it says so instead of "no passkeys".
  if (list === null) {
    return online ? null : (
      <p className="card account-card passkey-empty" data-testid="passkeys-offline">
        <Trans>Your passkeys cannot be loaded offline. Connect to the internet to see them.</Trans>
      </p>
    );
  }
  if (list.length === 0) {
    return (
      <p className="card account-card passkey-empty" data-testid="passkeys-empty">
        <Trans>No passkeys yet. Add one on this device below.</Trans>
      </p>
    );
  }
  return (
    <ul className="card passkey-list" aria-label={t`Your passkeys`} data-testid="passkeys-list">
      {list.map((p) => (
        <PasskeyRow key={p.id} passkey={p} onRemoved={onRemoved} />
      ))}
    </ul>
  );
}

function PasskeyRow({ passkey, onRemoved }: { passkey: PasskeyItem; onRemoved: () => Promise<unknown> }) {
  const { t } = useLingui();
  const online = useOnline();
  const [asking, setAsking] = useState(false);
  const write = useWrite(removePasskey);
  const name = passkey.name;
  const added = formatDateTime(passkey.created_at_ms);
  const used = passkey.last_used_at_ms === null ? null : formatDateTime(passkey.last_used_at_ms);
  const remove = async () => {
    const res = await write.run({ id: passkey.id });
    if (res?.code === 0) {
      showToast(t`Passkey removed.`, 'success');
      await onRemoved();
    }
  };
  return (
    <li className="passkey-row" data-testid="passkey-row">
      <div className="passkey-row__text">
        <p className="passkey-row__name">{name}</p>
        <p className="passkey-row__meta muted">
          <Trans>Added {added}</Trans>
          <br />
          {used ? <Trans>Last used {used}</Trans> : <Trans>Not used yet</Trans>}
        </p>
        <FormAlert id={`passkey-${passkey.id}-alert`} message={write.error} />
      </div>
      {asking ? (
        <div className="passkey-row__actions">
          <button type="button" className="btn btn--danger btn--small" onClick={() => void remove()} disabled={!online || write.busy} data-testid="passkey-remove-confirm">
            <Trans>Remove</Trans>
          </button>
          <button type="button" className="btn btn--ghost btn--small" onClick={() => setAsking(false)}>
            <Trans>Keep</Trans>
          </button>
        </div>
      ) : (
        <button type="button" className="btn btn--ghost btn--small" onClick={() => setAsking(true)} disabled={!online} aria-label={t`Remove ${name}`} data-testid="passkey-remove">
          <Trans>Remove</Trans>
        </button>
      )}
    </li>
  );
}

function AddPasskeyForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;
  const form = useSchemaForm(FORM, passkeyFormSchema, { name: '', password: '' }, lang);
  const write = useWrite(addPasskey);

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.check();
    if (!input) return;
    const res = await write.run(input);
    if (res?.code === 0) {
      onDone();
      showToast(t`Passkey added. You can sign in with it now.`, 'success');
    }
  };

  if (!supported) {
    return (
      <p className="card account-card muted" data-testid="passkeys-unsupported">
        <Trans>This browser cannot make passkeys. Open Canopy in an up-to-date browser on your phone.</Trans>
      </p>
    );
  }
  if (isIpHost(window.location.hostname)) {
    const here = window.location.hostname;
    return (
      <p className="card account-card muted" data-testid="passkeys-ip-host">
        <Trans>Passkeys need Canopy opened at a host name, such as localhost or canopy.sg. Browsers refuse them at an IP address like {here}.</Trans>
      </p>
    );
  }
  const { values, set, errors, a11y } = form;
  return (
    <form className="card account-card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="passkey-add-title">
      <h2 className="passkey-add__title" id="passkey-add-title">
        <Trans>Add a passkey</Trans>
      </h2>
      <Field label={t`Device name`} name="name" form={FORM} errors={errors} hint={<Trans>So you can tell your passkeys apart, e.g. “My phone”.</Trans>}>
        <input {...a11y('name')} data-testid="passkey-name" className="input" type="text" autoComplete="off" maxLength={PASSKEY_NAME_MAX_LENGTH} value={values.name} onChange={(e) => set('name', e.target.value)} />
      </Field>
      <PasswordField form={form} formId={FORM} name="password" label={t`Login password`} testId="passkey-password" autoComplete="current-password" />
      <SubmitButton busy={write.busy} busyLabel={<Trans>Waiting for your device…</Trans>} testId="passkey-add">
        <Trans>Add passkey</Trans>
      </SubmitButton>
      <FormAlert id="passkey-alert" message={write.error} />
    </form>
  );
}
