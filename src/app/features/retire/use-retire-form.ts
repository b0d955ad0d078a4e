import type { RetireResult } from '../../../shared/schemas/approval';
import { useEffect, useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import * as v from 'valibot';
import { useWrite } from '../../components/forms/use-write';
import { showToast } from '../../components/toast';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage, isErrorKey } from '../../../shared/errors';
import { beneficiarySchema, reasonSchema } from '../../../shared/schemas/retire';
import type { UserInfo } from '../../../shared/schemas/user';
import { sendRetire, useRetirable, type RetireInput } from './api';

// The retire form's state and its one write: the holdings to choose from, the fields and their messages
// (docs/product.md#retirement), and the retirement itself once the confirm sheet has the payment password.

/** The default beneficiary: the company for a corporate account, else the member's name. */
function defaultBeneficiary(info: UserInfo | null | undefined): string {
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

/** Whole tons typed, or NaN. */
const parseTons = (text: string) => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : NaN);

/** The holding chosen: the one asked for, else the first once the holdings arrive. */
function useChosenProject(projectId: number | undefined) {
  const { holdings, pending, error } = useRetirable(true);
  const [project, setProject] = useState<number | null>(projectId ?? null);
  useEffect(() => {
    if (holdings && holdings.length > 0 && (project === null || !holdings.some((h) => h.project_id === project))) setProject(holdings[0]!.project_id);
  }, [holdings, project]);
  const holding = holdings?.find((h) => h.project_id === project) ?? null;
  const pendingSale = project !== null ? (pending.get(project) ?? 0) : 0;
  return { holdings, loadError: error, project, setProject, holding, held: holding?.tons ?? 0, pendingSale };
}

export function useRetireForm(info: UserInfo | null | undefined, projectId: number | undefined, onDone: (a: RetireResult) => void) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const chosen = useChosenProject(projectId);
  const { project, holding, held } = chosen;
  const [tonsText, setTonsText] = useState('1');
  const [beneficiary, setBeneficiary] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [hidden, setHidden] = useState(false);
  const [iccYear, setIccYear] = useState<number | null>(null);
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const name = beneficiary ?? defaultBeneficiary(info);
  const tons = parseTons(tonsText);
  const tonsError = !Number.isInteger(tons) || tons < 1 ? errorMessage('retire_tons_invalid', lang) : tons > held ? errorMessage('retire_insufficient_credits', lang, { n: held }) : '';
  const nameError = firstMessage(beneficiarySchema, name, lang);
  const reasonError = firstMessage(reasonSchema, reason, lang);
  const valid = holding !== null && !tonsError && !nameError && !reasonError;

  const input = useMemo(() => ({ project_id: project ?? 0, tons, beneficiary: name.trim(), reason: reason.trim(), hide_beneficiary: hidden, icc_year: iccYear }), [project, tons, name, reason, hidden, iccYear]);
  const write = useWrite<string, RetireResult>(
    (paypwd, key) => sendRetire({ ...input, paypwd } satisfies RetireInput, key),
    () => input,
  );

  const submit = () => {
    setTouched(true);
    if (valid) setConfirming(true);
  };
  const closeConfirm = () => {
    write.setError('');
    setConfirming(false);
  };
  const confirm = async (paypwd: string): Promise<number | null> => {
    const res = await write.run(paypwd);
    if (res?.code === 0) {
      showToast('approval' in res.data ? t`Sent for approval` : t`Credits retired`, 'success');
      setConfirming(false);
      onDone(res.data);
    }
    return res?.code ?? null;
  };

  return {
    ...chosen,
    fields: { tonsText, setTonsText, tons, name, setBeneficiary, reason, setReason, hidden, setHidden, iccYear, setIccYear },
    errors: { tons: tonsError, name: nameError, reason: reasonError },
    touched,
    valid,
    noPassword: Boolean(info && !info.has_withdraw_password),
    submit,
    confirming,
    closeConfirm,
    confirm,
    write,
  };
}
