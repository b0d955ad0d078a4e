import { useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { useOnline } from '../../lib/online';
import { formatDate, formatSgd } from '../../lib/format';
import { serverNow } from '../../lib/server-time';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import type { BankCard, WithdrawalRecord } from '../../../shared/schemas/wallet';
import { refreshUserInfo, useUserInfo } from '../../lib/user-info';
import { requestWithdrawal, useCard, useLimits, useWithdrawals, type WalletLimits } from './api';
import { previewWithdrawal, type WithdrawalPreview } from './amount';
import { SubmitButton } from '../../components/forms/submit-button';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { useWrite } from '../../components/forms/use-write';
import { AmountInput, SummaryRow, WalletPage } from './wallet-parts';
import { sgtDay, withdrawalDay } from './withdraw-day';
import { maskPaynow } from './mask';

// /pages/profile/withdraw: the withdrawal form ("apply for withdrawal"). The product lists both
// /pages/profile/withdraw and /pages/profile/apply (docs/product.md#screens-and-routes); here withdraw is the
// form and apply the withdrawal records. The handling fee and the total are shown before the confirm step,
// which asks for the withdrawal password in a modal sheet. The server decides every rule
// (docs/product.md#withdrawals); its refusals are shown as returned (already translated).

const FORM = 'withdraw';

export function WithdrawPage() {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Withdraw`}>
      <WithdrawScreen />
    </WalletPage>
  );
}

function WithdrawScreen() {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const router = useRouter();
  const online = useOnline();
  const { info } = useUserInfo();
  const { card } = useCard();
  const limits = useLimits();
  const recent = useWithdrawals();
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<'bank' | 'paynow' | null>(null);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const available = info?.wallet?.available ?? null;
  const preview = limits ? previewWithdrawal(amount, limits, available) : null;
  const problem = preview?.problem ?? null;
  // Too much (over the maximum or the balance) shows while typing; too little or unreadable after Continue.
  const amountError = tried || problem === 'above_max' || problem === 'insufficient' ? problemText(problem, limits, lang) : '';

  const now = serverNow();
  const todayDate = sgtDay(now).date;
  const withdrawnToday = recent.items.some((r) => r.status !== 'refused' && sgtDay(r.created_at_ms).date === todayDate);
  // Said up front (weekend, public holiday, already one today), with the next possible day; the form is
  // closed until then rather than refusing on submit.
  const day = withdrawalDay(now, { withdrawnToday, holidays: limits?.public_holidays });
  const nextDate = formatDate(day.nextMs);
  const hasBank = Boolean(card?.bank_name && card.account_no);
  const hasPaynow = Boolean(card?.paynow);
  const payout: 'bank' | 'paynow' | null = method ?? (hasBank ? 'bank' : hasPaynow ? 'paynow' : null);

  const blocked = info?.risk || info?.locked || card === null || info?.has_withdraw_password === false || day.block !== null;

  const onContinue = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!preview || problem !== null || blocked) {
      document.getElementById(`${FORM}-amount`)?.focus();
      return;
    }
    setConfirming(true);
  };

  const done = (record: WithdrawalRecord) => {
    setConfirming(false);
    setAmount('');
    setTried(false);
    showToast(t`Withdrawal of ${formatSgd(record.amount)} submitted.`, 'success');
    void refreshUserInfo();
    void router.navigate({ to: '/pages/profile/apply' });
  };

  return (
    <div className="section">
      <section className="card wallet-card balance" aria-labelledby="balance-title">
        <h2 className="balance__label" id="balance-title">
          <Trans>Available balance</Trans>
        </h2>
        <p className="balance__value" data-testid="withdraw-available">
          {available !== null ? formatSgd(available) : '—'}
        </p>
        {info?.wallet && info.wallet.frozen > 0 && (
          <p className="balance__sub">
            <Trans>Frozen: {formatSgd(info.wallet.frozen)}</Trans>
          </p>
        )}
      </section>

      {info?.risk && (
        <p className="notice notice--danger wallet-notice" role="status">
          {errorMessage('risk_forbidden', lang)}
        </p>
      )}
      {info?.locked && (
        <p className="notice notice--danger wallet-notice" role="status">
          <Trans>Withdrawals are locked and your balance is frozen after repeated wrong withdrawal passwords. Please contact the administrator.</Trans>
        </p>
      )}
      {info?.has_withdraw_password === false && (
        <p className="notice notice--warn wallet-notice" role="status" data-testid="need-withdpwd">
          <Trans>
            Set a <Link to="/pages/profile/withdpwd">withdrawal password</Link> first.
          </Trans>
        </p>
      )}

      <p className="notice wallet-notice" data-testid="withdraw-rules">
        <Trans>Withdrawals are processed Monday to Friday (Singapore time), at most once a day, not on public holidays.</Trans>
      </p>
      {day.block && (
        <p className="notice notice--warn wallet-notice" role="status" id="withdraw-next" data-testid="withdraw-next">
          {day.block === 'weekend' ? (
            <Trans>Today is a weekend in Singapore.</Trans>
          ) : day.block === 'holiday' ? (
            <Trans>Today is a public holiday in Singapore.</Trans>
          ) : (
            <Trans>You have already applied for a withdrawal today.</Trans>
          )}
          <strong className="wallet-notice__next">
            <Trans>Next withdrawal possible on {nextDate}.</Trans>
          </strong>
        </p>
      )}

      <form className="card wallet-card" onSubmit={onContinue} noValidate data-testid="withdraw-form">
        <fieldset className="wallet-fieldset" disabled={day.block !== null} aria-describedby={day.block ? 'withdraw-next' : undefined}>
        <PayoutAccount card={card} payout={payout} hasBank={hasBank} hasPaynow={hasPaynow} onMethod={setMethod} />

        <div className="field">
          <label className="field__label" htmlFor={`${FORM}-amount`}>
            <Trans>Amount to receive</Trans>
          </label>
          <AmountInput
            id={`${FORM}-amount`}
            name="amount"
            testId="withdraw-amount"
            value={amount}
            onChange={setAmount}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? `${FORM}-amount-error` : `${FORM}-amount-hint`}
          />
          {amountError ? (
            <p className="field__error" id={`${FORM}-amount-error`} role="alert">
              {amountError}
            </p>
          ) : (
            <p className="field__hint" id={`${FORM}-amount-hint`}>
              {limits ? (
                <Trans>
                  Between {formatSgd(limits.withdraw_min)} and {formatSgd(limits.withdraw_max)}
                </Trans>
              ) : (
                <Trans>Loading limits…</Trans>
              )}
            </p>
          )}
        </div>

        <FeeSummary preview={preview} />

        <SubmitButton testId="withdraw-submit" disabled={!limits || blocked === true || card === undefined}>
          <Trans>Continue</Trans>
        </SubmitButton>
        </fieldset>
      </form>

      <p className="wallet-links">
        <Link to="/pages/profile/apply">
          <Trans>Withdrawal records</Trans>
        </Link>
      </p>

      {preview && preview.amount !== null && payout && card && (
        <WithdrawConfirmSheet
          open={confirming && online}
          onClose={() => setConfirming(false)}
          preview={preview}
          card={card}
          payout={payout}
          method={method ?? undefined}
          onDone={done}
        />
      )}
    </div>
  );
}

function problemText(problem: WithdrawalPreview['problem'], limits: WalletLimits | null, lang: 'en' | 'cn'): string {
  switch (problem) {
    case 'empty':
      return errorMessage('required', lang);
    case 'invalid':
      return errorMessage('invalid_amount', lang);
    case 'below_min':
      return errorMessage('withdraw_below_min', lang, { n: formatSgd(limits?.withdraw_min ?? 0) });
    case 'above_max':
      return errorMessage('withdraw_above_max', lang, { n: formatSgd(limits?.withdraw_max ?? 0) });
    case 'insufficient':
      return errorMessage('insufficient_balance', lang);
    default:
      return '';
  }
}

function PayoutAccount({
  card,
  payout,
  hasBank,
  hasPaynow,
  onMethod,
}: {
  card: BankCard | null | undefined;
  payout: 'bank' | 'paynow' | null;
  hasBank: boolean;
  hasPaynow: boolean;
  onMethod: (m: 'bank' | 'paynow') => void;
}) {
  const { t } = useLingui();
  if (card === undefined) return null;
  if (card === null) {
    return (
      <div className="notice notice--warn wallet-notice" data-testid="need-card">
        <Trans>
          Bind a bank account or PayNow number in your name to withdraw. <Link to="/pages/profile/card">Bind an account</Link>
        </Trans>
      </div>
    );
  }
  return (
    <div className="field">
      <span className="field__label" id="payout-label">
        <Trans>Pay to</Trans>
      </span>
      {hasBank && hasPaynow && (
        <div className="segmented wallet-segmented" role="group" aria-labelledby="payout-label">
          <button type="button" aria-pressed={payout === 'bank'} onClick={() => onMethod('bank')}>
            <Trans>Bank account</Trans>
          </button>
          <button type="button" aria-pressed={payout === 'paynow'} onClick={() => onMethod('paynow')}>
            PayNow
          </button>
        </div>
      )}
      <div className="payout" data-testid="payout-account">
        <span className="payout__what">
          {payout === 'paynow' ? (
            <span className="mono">PayNow {maskPaynow(card.paynow, card.paynow_type)}</span>
          ) : (
            <>
              {card.bank_name} <span className="mono">{card.account_no}</span>
            </>
          )}
        </span>
        <span className="payout__who">{card.holder_name}</span>
        <Link to="/pages/profile/card" className="payout__change" aria-label={t`Change payout account`}>
          <Trans>Change</Trans>
        </Link>
      </div>
    </div>
  );
}

function FeeSummary({ preview }: { preview: WithdrawalPreview | null }) {
  const ready = preview && preview.amount !== null;
  return (
    <dl className="summary fee-summary" aria-live="polite" data-testid="fee-summary">
      <SummaryRow label={<Trans>You receive</Trans>} value={ready ? formatSgd(preview.amount!) : '—'} />
      <SummaryRow label={<Trans>Handling fee</Trans>} value={ready ? formatSgd(preview.fee!) : '—'} testId="withdraw-fee" />
      <SummaryRow label={<Trans>Total from available balance</Trans>} value={ready ? formatSgd(preview.total!) : '—'} strong testId="withdraw-total" />
    </dl>
  );
}

function WithdrawConfirmSheet({
  open,
  onClose,
  preview,
  card,
  payout,
  method,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  preview: WithdrawalPreview;
  card: BankCard;
  payout: 'bank' | 'paynow';
  method?: 'bank' | 'paynow';
  onDone: (record: WithdrawalRecord) => void;
}) {
  const { t } = useLingui();
  // The intent is this amount to this account; the password is not part of it (nor of the server's
  // fingerprint), and never kept beyond the sheet.
  const write = useWrite(requestWithdrawal, (input) => ({ amount: input.amount, method: input.method ?? '' }));

  const close = () => {
    write.setError('');
    onClose();
  };

  const confirm = async (password: string): Promise<number | null> => {
    const res = await write.run({ amount: preview.amount!, password, ...(method ? { method } : {}) });
    if (res?.code === 0 && res.data) onDone(res.data);
    return res?.code ?? null;
  };

  return (
    <ConfirmSheet
      open={open}
      onClose={close}
      title={<Trans>Confirm withdrawal</Trans>}
      password={{
        id: 'withdraw-password',
        testId: 'withdraw-password',
        label: <Trans>Withdrawal password</Trans>,
        hint: (
          <Trans>
            Five wrong passwords lock withdrawals and freeze your balance. <Link to="/pages/profile/withdpwd">Forgot it? Set a new one</Link>
          </Trans>
        ),
        missing: t`Please enter your withdrawal password.`,
      }}
      busy={write.busy}
      error={write.error}
      confirmLabel={<Trans>Confirm withdrawal</Trans>}
      busyLabel={<Trans>Sending…</Trans>}
      onConfirm={confirm}
      testId="withdraw-confirm"
      submitTestId="withdraw-confirm-submit"
    >
      <dl className="summary">
        <SummaryRow label={<Trans>You receive</Trans>} value={formatSgd(preview.amount!)} />
        <SummaryRow label={<Trans>Handling fee</Trans>} value={formatSgd(preview.fee!)} />
        <SummaryRow label={<Trans>Total from available balance</Trans>} value={formatSgd(preview.total!)} strong />
        <SummaryRow label={<Trans>Pay to</Trans>} value={payout === 'paynow' ? `PayNow ${card.paynow}` : `${card.bank_name} ${card.account_no}`} />
      </dl>
    </ConfirmSheet>
  );
}
