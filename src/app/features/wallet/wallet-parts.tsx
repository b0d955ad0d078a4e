import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import './wallet.css';

// Pieces shared by the wallet screens (top-up, withdraw, records, fund logs, payout account).

/** A wallet page: members only; everyone else is asked to log in. */
export function WalletPage({ title, children, className = '' }: { title: ReactNode; children: ReactNode; className?: string }) {
  return (
    <MemberPage
      title={title}
      className={`wallet-page ${className}`}
      prompt={<Trans>Log in with your account to use your wallet. Visitors can browse but cannot move money.</Trans>}
    >
      {children}
    </MemberPage>
  );
}

export function StatusChip({ status, children }: { status: string; children: ReactNode }) {
  return (
    <span className={`chip-status chip-status--${status}`} data-testid="status-chip" data-status={status}>
      {children}
    </span>
  );
}

/** An S$ amount input: text with a decimal keypad (parsed to cents by the caller, never as a float). */
export function AmountInput({
  value,
  onChange,
  testId,
  ...a11y
}: {
  id: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <div className="amount-input">
      <span className="amount-input__prefix" aria-hidden="true">
        S$
      </span>
      <input
        {...a11y}
        data-testid={testId}
        className="input amount-input__field"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        enterKeyHint="done"
        placeholder="0.00"
        maxLength={16}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** A definition row of a summary ("Handling fee  S$2.00"). */
export function SummaryRow({ label, value, strong = false, testId }: { label: ReactNode; value: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <div className={strong ? 'summary__row summary__row--strong' : 'summary__row'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
