import { useEffect, useRef } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { useSchemaForm } from '../../lib/form';
import { updateLoginInfo } from '../../lib/storage';
import { localeToWire, type Locale } from '../../../shared/api';
import { profileSchema } from '../../../shared/schemas/wallet';
import { localMobile } from '../../../shared/schemas/auth';
import { InputField } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { refreshUserInfo, useUserInfo } from '../../lib/user-info';
import { saveProfile } from './api';
import { SubmitButton } from '../../components/forms/submit-button';
import { AccountPage } from './account-page';
import { useWrite } from '../../components/forms/use-write';

// /pages/profile/profile: personal information. The registered name (first + last) is what the bank or
// PayNow holder name is checked against, so it is filled in here before an account can be bound.

const FORM = 'profile';

export function PersonalInfoPage() {
  const { t } = useLingui();
  return (
    <AccountPage title={t`Personal information`}>
      <PersonalInfoForm />
    </AccountPage>
  );
}

function PersonalInfoForm() {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const { info } = useUserInfo();
  const form = useSchemaForm(FORM, profileSchema, { first_name: '', last_name: '', mobile: '', ic_number: '' }, lang);
  const write = useWrite(saveProfile);
  const filled = useRef(false);
  const { values, set, setValues, errors, a11y } = form;

  // Fill the form once with what the server has (the user may already have typed: do not overwrite then).
  useEffect(() => {
    if (!info || filled.current) return;
    filled.current = true;
    setValues((old) => ({
      first_name: old.first_name || info.first_name,
      last_name: old.last_name || info.last_name,
      mobile: old.mobile || info.mobile,
      ic_number: old.ic_number || info.ic_number,
    }));
  }, [info, setValues]);

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.check();
    if (!input) return;
    const res = await write.run(input);
    if (res?.code === 0 && res.data) {
      updateLoginInfo({ realname: res.data.realname, mobile: res.data.mobile });
      showToast(t`Personal information saved.`, 'success');
      void refreshUserInfo();
    }
  };

  return (
    <div className="section">
      <p className="notice account-notice">
        <Trans>Use your name exactly as your bank shows it: withdrawals go only to an account in this name.</Trans>
      </p>
      <form className="card account-card" onSubmit={(e) => void onSubmit(e)} noValidate>
        {info && (
          <div className="field">
            <span className="field__label">
              <Trans>Email</Trans>
            </span>
            <p className="account-readonly">{info.email}</p>
          </div>
        )}
        <InputField
          label={t`First name`}
          form={FORM}
          errors={errors}
          a11y={a11y('first_name')}
          testId="profile-first-name"
          autoComplete="given-name"
          maxLength={60}
          value={values.first_name}
          onChange={(value) => set('first_name', value)}
        />
        <InputField
          label={t`Last name`}
          form={FORM}
          errors={errors}
          a11y={a11y('last_name')}
          testId="profile-last-name"
          autoComplete="family-name"
          maxLength={60}
          value={values.last_name}
          onChange={(value) => set('last_name', value)}
        />
        <InputField
          label={t`Mobile number`}
          form={FORM}
          errors={errors}
          hint={t`8 digits, e.g. 91234567`}
          a11y={a11y('mobile')}
          testId="profile-mobile"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={20}
          value={values.mobile}
          onChange={(value) => set('mobile', localMobile(value))}
        />
        <InputField
          label={t`IC number`}
          form={FORM}
          errors={errors}
          hint={t`Your NRIC or FIN as on the card, e.g. S1234567D`}
          a11y={a11y('ic_number')}
          testId="profile-ic"
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={9}
          value={values.ic_number}
          onChange={(value) => set('ic_number', value.toUpperCase())}
        />
        <SubmitButton busy={write.busy} busyLabel={<Trans>Saving…</Trans>} testId="profile-submit">
          <Trans>Save</Trans>
        </SubmitButton>
        <FormAlert id="profile-alert" message={write.error} />
      </form>
    </div>
  );
}
