import { useEffect, useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import * as v from 'valibot';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { showToast } from '../../components/toast';
import { formatTons, pick } from '../../lib/format';
import { useUserInfo } from '../../lib/user-info';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage, isErrorKey } from '../../../shared/errors';
import { BENEFICIARY_MAX, REASON_MAX, beneficiarySchema, reasonSchema, type RetireAnswer } from '../../../shared/schemas/retire';
import type { UserInfo } from '../../../shared/schemas/user';
import { certificatePath, sendRetire, useRetirable, type RetireInput } from './api';
import { ShareButton } from './share';
import { LogInState } from '../../components/empty-state';
import './retire.css';
import { SerialRanges } from './serial-ranges';

// /pages/profile/retire?project_id= : retire whole tons of a holding for a beneficiary. Permanent: the
// confirm sheet says so, and asks for the payment password. Tons pending sale are already out of the
// holding; the form says how many are pending so the figure is not a surprise.

/** The default beneficiary: the company for a corporate account, else the member's name. */
export function defaultBeneficiary(info: UserInfo | null | undefined): string {
  if (!info) return '';
  if (info.type === 'corporate' && info.company.trim()) return info.company.trim();
  return (info.realname || `${info.first_name} ${info.last_name}`).trim();
}

function firstMessage(schema: v.GenericSchema, value: unknown, lang: 'en' | 'cn'): string {
  const r = v.safeParse(schema, value);
  if (r.success) return '';
  const key = r.issues[0]?.message ?? 'invalid_request';
  return isErrorKey(key) ? errorMessage(key, lang) : key;
}

export function RetirePage({ projectId }: { projectId?: number }) {
  const { t } = useLingui();
  const { info, member } = useUserInfo();
  const [done, setDone] = useState<RetireAnswer | null>(null);
  return (
    <div className="page retire-page">
      <NavBar title={t`Retire credits`} />
      <OfflineBar />
      {!member ? (
        <LogInState redirect="/pages/profile/retire">
          <Trans>Log in to retire your carbon credits.</Trans>
        </LogInState>
      ) : done ? (
        <Retired answer={done} />
      ) : (
        <RetireForm info={info} projectId={projectId} onDone={setDone} />
      )}
    </div>
  );
}

function RetireForm({ info, projectId, onDone }: { info: UserInfo | null | undefined; projectId?: number; onDone: (a: RetireAnswer) => void }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const { holdings, pending, error: loadError } = useRetirable(true);
  const [project, setProject] = useState<number | null>(projectId ?? null);
  const [tonsText, setTonsText] = useState('1');
  const [beneficiary, setBeneficiary] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (holdings && holdings.length > 0 && (project === null || !holdings.some((h) => h.project_id === project))) setProject(holdings[0]!.project_id);
  }, [holdings, project]);

  const holding = holdings?.find((h) => h.project_id === project) ?? null;
  const held = holding?.tons ?? 0;
  const pendingSale = project !== null ? (pending.get(project) ?? 0) : 0;
  const name = beneficiary ?? defaultBeneficiary(info);
  const tons = /^\d{1,9}$/.test(tonsText.trim()) ? Number(tonsText.trim()) : NaN;
  const tonsError = !Number.isInteger(tons) || tons < 1 ? errorMessage('retire_tons_invalid', lang) : tons > held ? errorMessage('retire_insufficient_credits', lang, { n: held }) : '';
  const nameError = firstMessage(beneficiarySchema, name, lang);
  const reasonError = firstMessage(reasonSchema, reason, lang);
  const valid = holding !== null && !tonsError && !nameError && !reasonError;
  const noPassword = info && !info.has_withdraw_password;

  const input = useMemo(() => ({ project_id: project ?? 0, tons, beneficiary: name.trim(), reason: reason.trim() }), [project, tons, name, reason]);
  const write = useWrite<string, RetireAnswer>(
    (paypwd, key) => sendRetire({ ...input, paypwd } satisfies RetireInput, key),
    () => input,
  );

  if (loadError && !holdings) return <p className="empty">{loadError}</p>;
  if (!holdings) return <p className="empty">{t`Loading…`}</p>;
  if (holdings.length === 0) {
    return (
      <div className="empty" data-testid="retire-empty">
        <p>
          <Trans>You hold no carbon credits yet. Credits arrive when a purchase completes its cycle.</Trans>
        </p>
        <Link to="/pages/profile/certificates" className="btn btn--ghost">
          <Trans>My certificates</Trans>
        </Link>
      </div>
    );
  }

  const show = (msg: string) => (touched ? msg : '');
  const amount = Number.isInteger(tons) ? formatTons(tons) : '';
  const confirm = async (paypwd: string): Promise<number | null> => {
    const res = await write.run(paypwd);
    if (res?.code === 0) {
      showToast(t`Credits retired`, 'success');
      setConfirming(false);
      onDone(res.data);
    }
    return res?.code ?? null;
  };

  return (
    <>
      <form
        className="section retire-form"
        noValidate
        aria-labelledby="retire-title"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (valid) setConfirming(true);
        }}
      >
        <h2 className="sr-only" id="retire-title">
          <Trans>Retirement details</Trans>
        </h2>
        <p className="notice">
          <Trans>Retiring a credit uses it to offset emissions on the beneficiary's behalf. A public certificate is issued; retired credits can never be sold or returned.</Trans>
        </p>
        <div className="field">
          <label className="field__label" htmlFor="retire-project">
            <Trans>Project</Trans>
          </label>
          <select id="retire-project" className="input" data-testid="retire-project" value={project ?? ''} onChange={(e) => setProject(Number(e.target.value))}>
            {holdings.map((h) => (
              <option key={h.project_id} value={h.project_id}>
                {pick(h, 'project_name')} · {formatTons(h.tons)}
              </option>
            ))}
          </select>
          <p className="field__hint" data-testid="retire-held">
            {pendingSale > 0 ? (
              <Trans>
                You can retire up to {formatTons(held)}. {formatTons(pendingSale)} pending sale cannot be retired.
              </Trans>
            ) : (
              <Trans>You can retire up to {formatTons(held)}.</Trans>
            )}
          </p>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="retire-tons">
            <Trans>Tons to retire</Trans>
          </label>
          <input
            id="retire-tons"
            className="input"
            data-testid="retire-tons"
            inputMode="numeric"
            value={tonsText}
            onChange={(e) => setTonsText(e.target.value)}
            aria-invalid={Boolean(show(tonsError))}
            aria-describedby={show(tonsError) ? 'retire-tons-error' : undefined}
          />
          {show(tonsError) && (
            <p className="field__error" id="retire-tons-error">
              {tonsError}
            </p>
          )}
        </div>
        <div className="field">
          <label className="field__label" htmlFor="retire-beneficiary">
            <Trans>Beneficiary</Trans>
          </label>
          <input
            id="retire-beneficiary"
            className="input"
            data-testid="retire-beneficiary"
            value={name}
            maxLength={BENEFICIARY_MAX + 20}
            onChange={(e) => setBeneficiary(e.target.value)}
            aria-invalid={Boolean(show(nameError))}
            aria-describedby={show(nameError) ? 'retire-beneficiary-error' : 'retire-beneficiary-hint'}
          />
          {show(nameError) ? (
            <p className="field__error" id="retire-beneficiary-error">
              {nameError}
            </p>
          ) : (
            <p className="field__hint" id="retire-beneficiary-hint">
              <Trans>The person or company the credits are retired for, as printed on the certificate.</Trans>
            </p>
          )}
        </div>
        <div className="field">
          <label className="field__label" htmlFor="retire-reason">
            <Trans>Reason (optional)</Trans>
          </label>
          <textarea
            id="retire-reason"
            className="input retire-form__reason"
            data-testid="retire-reason"
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={Boolean(reasonError)}
            aria-describedby="retire-reason-hint"
          />
          <p className={reasonError ? 'field__error' : 'field__hint'} id="retire-reason-hint">
            {reasonError || <Trans>{[...reason].length} of {REASON_MAX} characters</Trans>}
          </p>
        </div>
        {noPassword && (
          <p className="notice notice--warn">
            <Trans>
              Set your withdrawal password first: it is also your payment password. <Link to="/pages/profile/withdpwd">Set it now</Link>
            </Trans>
          </p>
        )}
        <div className="action-bar">
          <SubmitButton testId="retire-submit" disabled={Boolean(noPassword) || (touched && !valid)}>
            {Number.isInteger(tons) && tons > 0 ? <Trans>Retire {amount}</Trans> : <Trans>Retire</Trans>}
          </SubmitButton>
        </div>
      </form>
      <ConfirmSheet
        open={confirming}
        onClose={() => {
          write.setError('');
          setConfirming(false);
        }}
        title={<Trans>Confirm retirement</Trans>}
        password={{
          id: 'retire-password',
          testId: 'payment-password',
          label: <Trans>Payment password</Trans>,
          hint: <Trans>Your withdrawal password is also your payment password.</Trans>,
          missing: t`Enter your payment password.`,
        }}
        busy={write.busy}
        error={write.error}
        confirmLabel={<Trans>Retire permanently</Trans>}
        busyLabel={<Trans>Processing…</Trans>}
        onConfirm={confirm}
        testId="confirm-sheet"
        submitTestId="confirm-submit"
        closeTestId="confirm-close"
      >
        <p className="sheet__what">{holding ? pick(holding, 'project_name') : ''}</p>
        <dl className="retire-summary">
          <dt>
            <Trans>Tons</Trans>
          </dt>
          <dd data-testid="confirm-tons">{Number.isInteger(tons) ? formatTons(tons) : ''}</dd>
          <dt>
            <Trans>Beneficiary</Trans>
          </dt>
          <dd>{name.trim()}</dd>
          {reason.trim() && (
            <>
              <dt>
                <Trans>Reason</Trans>
              </dt>
              <dd>{reason.trim()}</dd>
            </>
          )}
        </dl>
        <p className="notice notice--warn" data-testid="retire-permanent">
          <Trans>This is permanent. Retired credits leave your balance for good: they cannot be sold, transferred or undone.</Trans>
        </p>
      </ConfirmSheet>
    </>
  );
}

function Retired({ answer }: { answer: RetireAnswer }) {
  return (
    <div className="section retire-done" data-testid="retire-done">
      <h2 className="section-title">
        <Trans>{formatTons(answer.tons)} retired</Trans>
      </h2>
      <p className="muted">
        <Trans>Serial numbers</Trans>
      </p>
      <SerialRanges serials={answer.serials} />
      <div className="retire-done__actions">
        <a className="btn btn--block" href={certificatePath(answer.id)} data-testid="open-certificate">
          <Trans>View certificate</Trans>
        </a>
        <ShareButton id={answer.id} />
        <Link to="/pages/profile/certificates" className="btn btn--ghost btn--block">
          <Trans>My certificates</Trans>
        </Link>
      </div>
    </div>
  );
}
