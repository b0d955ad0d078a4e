import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { LanguageToggle } from '../../components/language-toggle';
import { showToast } from '../../components/toast';
import { getBaseSettings, saveLogin } from '../../lib/storage';
import { useSchemaForm } from '../../lib/form';
import { PATHS, localeToWire, type Locale } from '../../../shared/api';
import { registerSchema, type LoginInfo } from '../../../shared/schemas/auth';
import { TEXT_MAX_LENGTH } from '../../../shared/constants';
import { InputField } from '../../components/forms/field';
import { AccountTypeSwitch, TermsCheck } from './login-page';
import { CodeAndPasswords, CodeFormSubmit, useCodeFormSubmit } from './code-form';
import './auth.css';

export function RegisterPage({ invite }: { invite?: string }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const lang = localeToWire(i18n.locale as Locale);
  const form = useSchemaForm(
    'register',
    registerSchema,
    {
      email: '',
      code: '',
      password: '',
      repassword: '',
      invite_code: invite ?? '',
      type: 'personal' as 'personal' | 'corporate',
      company: '',
      uen: '',
      agree: false,
    },
    lang,
  );
  const closed = getBaseSettings()?.registration_open === false;
  const { busy, serverError, setServerError, onSubmit } = useCodeFormSubmit<typeof form.values, LoginInfo>(PATHS.register, form.check, (res) => {
    if (!res.data) return false;
    saveLogin(res.data);
    showToast(t`Welcome to Canopy!`, 'success');
    void router.navigate({ to: '/pages/profile/index', replace: true });
  });

  const { values, set, errors, a11y } = form;
  return (
    <div className="page auth-page">
      <NavBar title={t`Create account`} right={<LanguageToggle />} />
      <div className="auth-hero auth-hero--compact">
        <h2 className="auth-hero__title">
          <Trans>Join Canopy</Trans>
        </h2>
        <p className="auth-hero__text">
          <Trans>Offset your footprint with verified carbon credits, priced in SGD.</Trans>
        </p>
      </div>

      <form className="auth-card card" onSubmit={(e) => void onSubmit(e)} noValidate>
        {closed && (
          <p className="notice notice--warn auth-notice" role="status">
            <Trans>Registration is currently closed. Please try again later.</Trans>
          </p>
        )}
        <AccountTypeSwitch value={values.type} onChange={(type) => set('type', type)} />
        {/* A company says who it is first; its login (email, code, password) and an invitation code follow. */}
        {values.type === 'corporate' && (
          <fieldset className="auth-company">
            <legend className="auth-company__legend">
              <Trans>Company details</Trans>
            </legend>
            <InputField
              label={t`Company name`}
              form="register"
              errors={errors}
              a11y={a11y('company')}
              autoComplete="organization"
              maxLength={TEXT_MAX_LENGTH}
              value={values.company}
              onChange={(value) => set('company', value)}
            />
            <InputField
              label={t`UEN`}
              form="register"
              errors={errors}
              hint={t`Your Unique Entity Number, e.g. 201912345K.`}
              a11y={a11y('uen')}
              className="input input--code"
              autoCapitalize="characters"
              autoComplete="off"
              maxLength={10}
              value={values.uen}
              onChange={(value) => set('uen', value.toUpperCase())}
            />
          </fieldset>
        )}


        <CodeAndPasswords
          form="register"
          scene="register"
          lang={lang}
          values={values}
          set={set}
          errors={errors}
          a11y={a11y}
          onServerError={setServerError}
          passwordLabel={t`Password`}
          repeatLabel={t`Repeat password`}
        />
        <InputField
          label={<Trans>Invitation code <span className="field__optional">(optional)</span></Trans>}
          form="register"
          errors={errors}
          a11y={a11y('invite_code')}
          className="input input--code"
          autoCapitalize="characters"
          autoComplete="off"
          maxLength={6}
          value={values.invite_code}
          onChange={(value) => set('invite_code', value.toUpperCase())}
        />

        <TermsCheck form="register" checked={values.agree} onChange={(agree) => set('agree', agree)} errors={errors} />

        <CodeFormSubmit form="register" busy={busy} disabled={closed} busyLabel={<Trans>Creating your account…</Trans>} serverError={serverError}>
          <Trans>Create account</Trans>
        </CodeFormSubmit>

        <p className="auth-switch">
          <Trans>Already have an account?</Trans>{' '}
          <Link to="/pages/login/index">
            <Trans>Log in</Trans>
          </Link>
        </p>
      </form>
    </div>
  );
}
