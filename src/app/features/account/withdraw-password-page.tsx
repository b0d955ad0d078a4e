import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSchemaForm } from '../../lib/form';
import { localeToWire, type Locale } from '../../../shared/api';
import { withdrawPasswordSetSchema } from '../../../shared/schemas/wallet';
import { PasswordField } from '../../components/forms/password-field';
import { FormAlert } from '../../components/forms/form-alert';
import { refreshUserInfo, useUserInfo } from '../../lib/user-info';
import { setWithdrawPassword } from './api';
import { WITHDRAW_PASSWORD_MIN, withdrawPasswordRules } from './password-rules';
import { SupportAddress, SupportLink } from '../../components/support-link';
import { PasswordChecklist } from './password-checklist';
import { SubmitButton } from '../../components/forms/submit-button';
import { AccountPage } from './account-page';
import { useWrite } from '../../components/forms/use-write';

// /pages/profile/withdpwd: set or change the payment password (it pays for orders and withdrawals).
// Rules (docs/product.md#validation, docs/product.md#accounts): >= 10 characters with a digit, upper, lower
// and a special character; not the login password; the login password proves it is the user, and changing one
// that exists needs the current one too (docs/decisions/0004-trust.md). A forgotten one is removed by an
// operator after checking who asks; the screen links support by mail (docs/product.md#accounts).

const FORM = 'withdpwd';

type Done = 'set' | 'changed';

export function WithdrawPasswordPage() {
  const { t } = useLingui();
  const [done, setDone] = useState<Done | null>(null);
  return (
    <AccountPage title={t`Payment password`}>
      {done ? <WithdrawPasswordDone done={done} /> : <WithdrawPasswordForm onDone={setDone} />}
    </AccountPage>
  );
}

/** The result of a save, in place of the form: what is now true and where to go next. */
function WithdrawPasswordDone({ done }: { done: Done }) {
  return (
    <div className="section">
      <section className="card account-card account-done" role="status" aria-labelledby="withdpwd-done-title" data-testid="withdpwd-done">
        <h2 className="account-done__title" id="withdpwd-done-title">
          <span aria-hidden="true" className="done-tick">
            ✓
          </span>{' '}
          {done === 'set' ? <Trans>Payment password set</Trans> : <Trans>Payment password changed</Trans>}
        </h2>
        <p className="account-done__text">
          <Trans>Use it to withdraw and to pay for orders. Five wrong entries lock withdrawals, so keep it somewhere safe.</Trans>
        </p>
        <div className="account-done__links">
          <Link to="/pages/profile/index" className="btn btn--block" data-testid="withdpwd-done-profile">
            <Trans>Back to profile</Trans>
          </Link>
          <Link to="/pages/profile/withdraw" className="btn btn--ghost btn--block">
            <Trans>Withdraw</Trans>
          </Link>
        </div>
      </section>
    </div>
  );
}

/** A forgotten payment password: only an operator removes it, after checking it is the member who asks. */
function ForgotWithdrawPassword({ email }: { email: string }) {
  const { t } = useLingui();
  return (
    <section className="card account-card account-forgot" aria-labelledby="withdpwd-forgot-title" data-testid="withdpwd-forgot">
      <h2 className="account-forgot__title" id="withdpwd-forgot-title">
        <Trans>Forgot your payment password?</Trans>
      </h2>
      <p className="account-forgot__text">
        <Trans>
          For your safety it cannot be reset in the app. Write to support (<SupportAddress />) from your registered e-mail address: once they have
          checked it is you, they remove it and you set a new one here with your login password.
        </Trans>
      </p>
      <SupportLink
        subject={t`Please remove my payment password`}
        body={t`I have forgotten the payment password of my Canopy account ${email}. Please remove it so that I can set a new one.`}
        className="btn btn--ghost btn--block"
        testId="withdpwd-support"
      >
        <Trans>E-mail support</Trans>
      </SupportLink>
    </section>
  );
}

function WithdrawPasswordForm({ onDone }: { onDone: (done: Done) => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const { info } = useUserInfo();
  const form = useSchemaForm(FORM, withdrawPasswordSetSchema, { password: '', repassword: '', login_password: '', old_password: '' }, lang);
  const write = useWrite(setWithdrawPassword);
  const rules = withdrawPasswordRules(form.values.password, form.values.login_password);
  const hasOne = info?.has_withdraw_password === true;

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.check();
    if (!input) return;
    const res = await write.run(input);
    if (res?.code === 0) {
      onDone(hasOne ? 'changed' : 'set');
      void refreshUserInfo();
    }
  };

  return (
    <div className="section">
      {info?.locked && (
        <p className="notice notice--warn account-notice" role="status">
          <Trans>Withdrawals are locked after repeated wrong payment passwords. Please contact the administrator to unlock your account.</Trans>
        </p>
      )}
      <p className="notice account-notice">
        {hasOne ? (
          <Trans>You have a payment password. Enter it and a new one to change it.</Trans>
        ) : (
          <Trans>Set a payment password. You will need it to withdraw and to pay for orders.</Trans>
        )}
      </p>
      <form className="card account-card" onSubmit={(e) => void onSubmit(e)} noValidate>
        {hasOne && (
          <PasswordField
            form={form}
            formId={FORM}
            name="old_password"
            label={t`Current payment password`}
            hint={t`Forgotten it? See below.`}
            testId="withdpwd-old-password"
            autoComplete="current-password"
          />
        )}
        <PasswordField
          form={form}
          formId={FORM}
          name="password"
          label={hasOne ? t`New payment password` : t`Payment password`}
          testId="withdpwd-password"
          autoComplete="new-password"
        />
        <PasswordChecklist id={`${FORM}-rules`} rules={rules} min={WITHDRAW_PASSWORD_MIN} />
        <PasswordField form={form} formId={FORM} name="repassword" label={t`Repeat payment password`} testId="withdpwd-repassword" autoComplete="new-password" />
        <PasswordField
          form={form}
          formId={FORM}
          name="login_password"
          label={t`Login password`}
          hint={t`To confirm it is you. Five wrong login passwords lock your login.`}
          testId="withdpwd-login-password"
          autoComplete="current-password"
        />
        <SubmitButton busy={write.busy} busyLabel={<Trans>Saving…</Trans>} testId="withdpwd-submit" disabled={info?.locked === true}>
          {hasOne ? <Trans>Change payment password</Trans> : <Trans>Set payment password</Trans>}
        </SubmitButton>
        <FormAlert id="withdpwd-alert" message={write.error} />
      </form>
      {(hasOne || info?.locked) && <ForgotWithdrawPassword email={info?.email ?? ''} />}
    </div>
  );
}
