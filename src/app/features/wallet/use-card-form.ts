import { useEffect, useMemo, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useWrite } from '../../components/forms/use-write';
import { useSchemaForm } from '../../lib/form';
import { refreshUserInfo } from '../../lib/user-info';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import { bankCardSchema, sameName, type BankCard } from '../../../shared/schemas/wallet';
import type { UserInfo } from '../../../shared/schemas/user';
import { bindCard } from './api';

// The payout account form's state and its write. The server keeps one binding per user and a POST
// replaces it whole, so one method is bound at a time; the holder name must equal the registered name
// (docs/product.md#withdrawals).

export const CARD_FORM = 'card';

export type Method = 'bank' | 'paynow';

/** The names a holder may carry (the server's rule, card.ts): a person's "first last"; an organisation's
 *  company name only. */
export function registeredNames(info: Pick<UserInfo, 'type' | 'first_name' | 'last_name' | 'company'>): string[] {
  if (info.type === 'corporate') return info.company.trim() ? [info.company.trim()] : [];
  return info.first_name.trim() && info.last_name.trim() ? [`${info.first_name.trim()} ${info.last_name.trim()}`] : [];
}

export function useCardForm(names: string[], card: BankCard | null, onDone: (saved: BankCard) => void) {
  const { i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const [method, setMethod] = useState<Method>(card && !card.bank_name && card.paynow ? 'paynow' : 'bank');
  const form = useSchemaForm(CARD_FORM, bankCardSchema, { bank_name: card?.bank_name ?? '', account_no: '', holder_name: names[0] ?? '', paynow: '', password: '' }, lang);
  const write = useWrite(bindCard);
  const { values, setValues, errors: schemaErrors } = form;
  const [holderChecked, setHolderChecked] = useState(false);
  const filled = useRef(names.length > 0);

  // The name may arrive after the form opened (user info refreshing): offer it as the holder name.
  useEffect(() => {
    if (filled.current || !names[0]) return;
    filled.current = true;
    setValues((old) => ({ ...old, holder_name: old.holder_name || names[0]! }));
  }, [names, setValues]);

  // The holder rule is the server's to decide, but a mismatch is visible here before anything is sent.
  const holderOk = names.some((n) => sameName(n, values.holder_name));
  const errors = useMemo(
    () =>
      holderChecked && values.holder_name.trim() && !holderOk && !schemaErrors.holder_name
        ? { ...schemaErrors, holder_name: errorMessage('holder_mismatch', lang) }
        : schemaErrors,
    [holderChecked, holderOk, schemaErrors, values.holder_name, lang],
  );

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    // Only the chosen method is sent: the binding is replaced whole.
    const input = form.check();
    setHolderChecked(true);
    if (!input || !holderOk) {
      if (input && !holderOk) document.getElementById(`${CARD_FORM}-holder_name`)?.focus();
      return;
    }
    const res = await write.run(input);
    if (res?.code === 0 && res.data) {
      void refreshUserInfo();
      onDone(res.data);
    }
  };

  const choose = (next: Method) => {
    setMethod(next);
    setValues((old) => ({ ...old, bank_name: next === 'bank' ? (card?.bank_name ?? old.bank_name) : '', account_no: '', paynow: '' }));
  };

  return { method, choose, values, set: form.set, a11y: form.a11y, errors, onSubmit, write };
}

export type CardFormState = ReturnType<typeof useCardForm>;
