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
  const { card, error } = useCard();
  const [editing, setEditing] = useState(false);
  const names = info ? registeredNames(info) : [];
  return (
    <div className="section">
      {card && !editing && <BoundAccount card={card} onChange={() => setEditing(true)} />}
      {card === undefined && error && <p className="notice notice--warn wallet-notice">{error}</p>}
      {info && names.length === 0 && (
        <p className="notice notice--warn wallet-notice" role="status">
          <Trans>
            Please complete your name in <Link to="/pages/profile/profile">personal information</Link> first: the account holder name must match it.
          </Trans>
        </p>
      )}
      {(card === null || editing) && info && <CardForm info={info} names={names} card={card ?? null} onDone={() => setEditing(false)} />}
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

function CardForm({ info, names, card, onDone }: { info: UserInfo; names: string[]; card: BankCard | null; onDone: () => void }) {
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
          <button type="button" className="btn btn--ghost btn--block" onClick={onDone}>
            <Trans>Cancel</Trans>
          </button>
        )}
      </div>
      <FormAlert id="card-alert" message={form.write.error} />
    </form>
  );
}
