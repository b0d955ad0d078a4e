import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { CapUnknown } from './cap-unknown';
import { get } from '../../lib/api';
import { formatTons, pick } from '../../lib/format';
import { PATHS } from '../../../shared/api';
import type { IccCap } from '../../../shared/schemas/icc';
import type { CreditHolding } from '../../../shared/schemas/order';

/** Before a surrender for Singapore carbon tax is confirmed: the tons of it that would pass the year's cap
 *  (docs/product.md#singapore-carbon-tax). The server warns again in its answer; offline, nothing shows. */
function CapPreview({ open, year, tons }: { open: boolean; year: number; tons: number }) {
  const [cap, setCap] = useState<IccCap | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    void get<IccCap>(PATHS.iccCap, { year }, { quiet: true, fresh: true }).then((res) => {
      if (live && res.code === 0) setCap(res.data);
    });
    return () => {
      live = false;
    };
  }, [open, year]);
  if (!cap || cap.year !== year || !Number.isInteger(tons)) return null;
  if (cap.taxable_tons === null) return <CapUnknown year={year} testId="confirm-icc-unknown" />;
  // Surrenders waiting for the registry count once cancelled: they take their room first.
  const overTons = Math.min(tons, cap.retired_tons + cap.pending_tons + tons - cap.cap_tons);
  if (overTons <= 0) return null;
  const over = formatTons(overTons);
  const limit = formatTons(cap.cap_tons);
  return (
    <p className="notice notice--warn" role="status" data-testid="confirm-icc-over">
      <Trans>
        {over} of these would pass your {year} cap of {limit} and would not count against Singapore carbon tax.
      </Trans>
    </p>
  );
}

/** The last step of a retirement: what is retired for whom, that it is permanent (or, above the
 *  organisation's threshold, that it goes to an approver), and the payment password. */
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
  approvalLimit,
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
  /** Retirements of more tons wait for an approver (docs/product.md#approvals); null: none does. */
  approvalLimit: number | null;
}) {
  const { t } = useLingui();
  const forApproval = approvalLimit !== null && Number.isInteger(tons) && tons > approvalLimit;
  const limit = formatTons(approvalLimit ?? 0);
  return (
    <ConfirmSheet
      open={open}
      onClose={onClose}
      title={<Trans>Confirm retirement</Trans>}
      password={{
        id: 'retire-password',
        testId: 'payment-password',
        label: <Trans>Payment password</Trans>,
        hint: <Trans>The payment password you set in your profile: it pays for orders and withdrawals.</Trans>,
        missing: t`Enter your payment password.`,
      }}
      busy={busy}
      error={error}
      confirmLabel={forApproval ? <Trans>Send for approval</Trans> : <Trans>Retire permanently</Trans>}
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
      {iccYear !== null && <CapPreview open={open} year={iccYear} tons={tons} />}
      {forApproval ? (
        <p className="notice" data-testid="retire-approval-note">
          <Trans>
            This is more than your organisation&apos;s limit of {limit}, so it goes to an approver. The tons are held until they approve it, and only then retired for good, or decline it.
          </Trans>
        </p>
      ) : (
        <p className="notice notice--warn" data-testid="retire-permanent">
          <Trans>This is permanent. Retired credits leave your balance for good: they cannot be sold, transferred or undone.</Trans>
        </p>
      )}
    </ConfirmSheet>
  );
}
