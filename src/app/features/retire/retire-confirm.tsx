import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { formatTons, pick } from '../../lib/format';
import type { CreditHolding } from '../../../shared/schemas/order';

/** The last step of a retirement: what is retired for whom, that it is permanent, and the payment password. */
export function RetireConfirmSheet({
  open,
  onClose,
  onConfirm,
  busy,
  error,
  holding,
  tons,
  name,
  reason,
  hidden,
  iccYear,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: (paypwd: string) => Promise<number | null>;
  busy: boolean;
  error: string;
  holding: CreditHolding | null;
  tons: number;
  name: string;
  reason: string;
  /** The certificate shows "a Canopy customer" instead of the name and reason. */
  hidden: boolean;
  /** Surrendered for Singapore carbon tax for this compliance year, or null. */
  iccYear: number | null;
}) {
  const { t } = useLingui();
  return (
    <ConfirmSheet
      open={open}
      onClose={onClose}
      title={<Trans>Confirm retirement</Trans>}
      password={{
        id: 'retire-password',
        testId: 'payment-password',
        label: <Trans>Payment password</Trans>,
        hint: <Trans>Your withdrawal password is also your payment password.</Trans>,
        missing: t`Enter your payment password.`,
      }}
      busy={busy}
      error={error}
      confirmLabel={<Trans>Retire permanently</Trans>}
      busyLabel={<Trans>Processing…</Trans>}
      onConfirm={onConfirm}
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
        {hidden && (
          <>
            <dt>
              <Trans>On the certificate</Trans>
            </dt>
            <dd data-testid="confirm-public-name">
              <Trans>a Canopy customer</Trans>
            </dd>
          </>
        )}
        {iccYear !== null && (
          <>
            <dt>
              <Trans>Singapore carbon tax</Trans>
            </dt>
            <dd data-testid="confirm-icc-year">
              <Trans>For {iccYear}</Trans>
            </dd>
          </>
        )}
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
  );
}
