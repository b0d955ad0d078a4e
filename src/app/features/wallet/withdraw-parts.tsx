import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatSgd } from '../../lib/format';
import { errorMessage } from '../../../shared/errors';
import type { BankCard } from '../../../shared/schemas/wallet';
import type { UserInfo } from '../../../shared/schemas/user';
import type { WalletLimits } from './api';
import type { WithdrawalPreview } from './amount';
import { AmountInput, SummaryRow } from './wallet-parts';
import { maskPaynow } from '../../../shared/schemas/wallet';
import type { WithdrawalDayBlock } from './withdraw-day';
import { WITHDRAW_FORM as FORM, type Payout } from './use-withdraw-form';

// The withdrawal screen's parts: the balance, what stops a withdrawal (account state, the day), the
// payout account, the amount with its limits, and the fee summary.

export function BalanceCard({ info }: { info: UserInfo | null | undefined }) {
  const available = info?.wallet?.available ?? null;
  return (
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
  );
}

/** Why this account cannot withdraw now: risk control, a lock, or no payment password yet. */
export function AccountNotices({ info, lang }: { info: UserInfo | null | undefined; lang: 'en' | 'cn' }) {
  return (
    <>
      {info?.risk && (
        <p className="notice notice--danger wallet-notice" role="status">
          {errorMessage('risk_forbidden', lang)}
        </p>
      )}
      {info?.locked && (
        <p className="notice notice--danger wallet-notice" role="status">
          <Trans>Withdrawals are locked and your balance is frozen after repeated wrong payment passwords. Please contact the administrator.</Trans>
        </p>
      )}
      {info?.has_withdraw_password === false && (
        <p className="notice notice--warn wallet-notice" role="status" data-testid="need-withdpwd">
          <Trans>
            Set a <Link to="/pages/profile/withdpwd">payment password</Link> first.
          </Trans>
        </p>
      )}
    </>
  );
}

/** The withdrawal days, and when today is not one, why and the next possible day. */
export function DayNotice({ block, nextDate }: { block: WithdrawalDayBlock | null; nextDate: string }) {
  return (
    <>
      <p className="notice wallet-notice" data-testid="withdraw-rules">
        <Trans>Withdrawals are processed Monday to Friday (Singapore time), at most once a day, not on public holidays.</Trans>
      </p>
      {block && (
        <p className="notice notice--warn wallet-notice" role="status" id="withdraw-next" data-testid="withdraw-next">
          {block === 'weekend' ? (
            <Trans>Today is a weekend in Singapore.</Trans>
          ) : block === 'holiday' ? (
            <Trans>Today is a public holiday in Singapore.</Trans>
          ) : (
            <Trans>You have already applied for a withdrawal today.</Trans>
          )}
          <strong className="wallet-notice__next">
            <Trans>Next withdrawal possible on {nextDate}.</Trans>
          </strong>
          <span className="wallet-notice__next">
            <Trans>You can enter an amount now to see the handling fee.</Trans>
          </span>
        </p>
      )}
    </>
  );
}

export function AmountField({ amount, onAmount, amountError, limits }: { amount: string; onAmount: (v: string) => void; amountError: string; limits: WalletLimits | null }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={`${FORM}-amount`}>
        <Trans>Amount to receive</Trans>
      </label>
      <AmountInput
        id={`${FORM}-amount`}
        name="amount"
        testId="withdraw-amount"
        value={amount}
        onChange={onAmount}
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
  );
}

export function PayoutAccount({
  card,
  payout,
  hasBank,
  hasPaynow,
  onMethod,
}: {
  card: BankCard | null | undefined;
  payout: Payout | null;
  hasBank: boolean;
  hasPaynow: boolean;
  onMethod: (m: Payout) => void;
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

export function FeeSummary({ preview }: { preview: WithdrawalPreview | null }) {
  const ready = preview && preview.amount !== null;
  return (
    <dl className="summary fee-summary" aria-live="polite" data-testid="fee-summary">
      <SummaryRow label={<Trans>You receive</Trans>} value={ready ? formatSgd(preview.amount!) : '—'} />
      <SummaryRow label={<Trans>Handling fee</Trans>} value={ready ? formatSgd(preview.fee!) : '—'} testId="withdraw-fee" />
      <SummaryRow label={<Trans>Total from available balance</Trans>} value={ready ? formatSgd(preview.total!) : '—'} strong testId="withdraw-total" />
    </dl>
  );
}
