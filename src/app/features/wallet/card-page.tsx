import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDate } from '../../lib/format';
import type { BankCard } from '../../../shared/schemas/wallet';
import type { UserInfo } from '../../../shared/schemas/user';
import { FormAlert } from '../../components/forms/form-alert';
import { SubmitButton } from '../../components/forms/submit-button';
import { useUserInfo } from '../../lib/user-info';
import { useCard } from './api';
import { WalletPage } from './wallet-parts';
import { maskPaynow } from '../../../shared/schemas/wallet';
import { registeredNames, useCardForm } from './use-card-form';
import { BankFields, CardPasswordField, HolderField, MethodSwitch, PaynowField } from './card-fields';

// /pages/profile/card: bind or change the payout account, a bank account or a PayNow number (8-digit
// mobile; a UEN for corporate users). The server keeps one binding per user and a POST replaces it whole,
// so the form binds one method at a time and says so. The holder name must equal the registered name.

export function CardPage() {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Bank card / PayNow`}>
      <CardScreen />
    </WalletPage>
  );
}

function CardScreen() {
  const { info } = useUserInfo();
  const loaded = useCard();
  const [editing, setEditing] = useState(false);
  // The account just saved (the write's answer), shown at once in place of the form, which goes with the
  // password typed into it; a later load of the binding is as new or newer.
  const [saved, setSaved] = useState<BankCard | null>(null);
  const card = saved && (!loaded.card || loaded.card.updated_at_ms <= saved.updated_at_ms) ? saved : loaded.card;
  const error = loaded.error;
  const names = info ? registeredNames(info) : [];
  const onSaved = (next: BankCard) => {
    setSaved(next);
    setEditing(false);
  };
  return (
    <div className="section">
      {saved && !editing && (
        <p className="notice notice--ok wallet-notice" role="status" data-testid="card-saved">
          <span aria-hidden="true">✓ </span>
          <Trans>Payout account saved. Withdrawals are paid to this account.</Trans>
        </p>
      )}
      {card && !editing && (
        <BoundAccount
          card={card}
          onChange={() => {
            setSaved(null);
            setEditing(true);
          }}
        />
      )}
      {card === undefined && error && <p className="notice notice--warn wallet-notice">{error}</p>}
      {info && names.length === 0 && (
        <p className="notice notice--warn wallet-notice" role="status">
          <Trans>
            Please complete your name in <Link to="/pages/profile/profile">personal information</Link> first: the account holder name must match it.
          </Trans>
        </p>
      )}
      {(card === null || editing) && info && <CardForm info={info} names={names} card={card ?? null} onDone={onSaved} onCancel={() => setEditing(false)} />}
    </div>
  );
}

function BoundAccount({ card, onChange }: { card: BankCard; onChange: () => void }) {
  return (
    <section className="card wallet-card bound" aria-labelledby="bound-title" data-testid="bound-account">
      <h2 className="wallet-card__title" id="bound-title">
        <Trans>Your payout account</Trans>
      </h2>
      <dl className="summary">
        {card.bank_name && (
          <div className="summary__row">
            <dt>
              <Trans>Bank</Trans>
            </dt>
            <dd>
              {card.bank_name} <span className="mono">{card.account_no}</span>
            </dd>
          </div>
        )}
        {card.paynow && (
          <div className="summary__row">
            <dt>PayNow</dt>
            <dd className="mono">{maskPaynow(card.paynow, card.paynow_type)}</dd>
          </div>
        )}
        <div className="summary__row">
          <dt>
            <Trans>Holder</Trans>
          </dt>
          <dd>{card.holder_name}</dd>
        </div>
        <div className="summary__row">
          <dt>
            <Trans>Updated</Trans>
          </dt>
          <dd>{formatDate(card.updated_at_ms)}</dd>
        </div>
      </dl>
      <button type="button" className="btn btn--ghost btn--block" onClick={onChange} data-testid="card-change">
        <Trans>Change account</Trans>
      </button>
    </section>
  );
}

function CardForm({ info, names, card, onDone, onCancel }: { info: UserInfo; names: string[]; card: BankCard | null; onDone: (saved: BankCard) => void; onCancel: () => void }) {
  const form = useCardForm(names, card, onDone);
  const fields = { values: form.values, set: form.set, a11y: form.a11y, errors: form.errors };
  return (
    <form className="card wallet-card" onSubmit={(e) => void form.onSubmit(e)} noValidate data-testid="card-form">
      <h2 className="wallet-card__title">{card ? <Trans>Change payout account</Trans> : <Trans>Bind a payout account</Trans>}</h2>
      <MethodSwitch method={form.method} onChoose={form.choose} />
      {card && (
        <p className="field__hint wallet-hint">
          <Trans>Saving replaces your current payout account.</Trans>
        </p>
      )}
      {form.method === 'bank' ? <BankFields {...fields} /> : <PaynowField {...fields} corporate={info.type === 'corporate'} />}
      <HolderField {...fields} names={names} />
      {info.has_withdraw_password && <CardPasswordField {...fields} />}
      <div className="wallet-actions">
        <SubmitButton busy={form.write.busy} busyLabel={<Trans>Saving…</Trans>} testId="card-submit" disabled={names.length === 0}>
          <Trans>Save payout account</Trans>
        </SubmitButton>
        {card && (
          <button type="button" className="btn btn--ghost btn--block" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </button>
        )}
      </div>
      <FormAlert id="card-alert" message={form.write.error} />
    </form>
  );
}
