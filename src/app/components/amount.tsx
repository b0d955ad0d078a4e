import { formatAmount, formatSigned } from '../lib/format';

// Money and tons as the app shows them everywhere: money in integer cents as S$, tons whole with "t"; a
// signed amount gets "+" or a true minus sign. One place, so a unit or a sign reads the same on every screen.

export type AmountUnit = 'cents' | 'tons';

/** An amount in its unit, tabular figures; `signed` adds + / − (money in / out). */
export function Amount({ value, unit = 'cents', signed = false, className, testId }: { value: number; unit?: AmountUnit; signed?: boolean; className?: string; testId?: string }) {
  return (
    <span className={className ? `amount ${className}` : 'amount'} data-testid={testId}>
      {signed ? formatSigned(value, unit) : formatAmount(value, unit)}
    </span>
  );
}


