import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { formatTons } from '../../lib/format';
import type { RetireAnswer } from '../../../shared/schemas/retire';
import { certificatePath } from './api';
import { CapUnknown } from './cap-unknown';
import { SerialRanges } from './serial-ranges';
import { RegistryStatus } from './registry-status';
import { ShareButton } from './share';

/** After a retirement: the tons, their serial numbers, and the way to the certificate. */
export function Retired({ answer }: { answer: RetireAnswer }) {
  return (
    <div className="section retire-done" data-testid="retire-done">
      <h2 className="section-title">
        <Trans>{formatTons(answer.tons)} retired</Trans>
      </h2>
      <p className="muted">
        <Trans>Serial numbers</Trans>
      </p>
      <SerialRanges serials={answer.serials} />
      <RegistryStatus c={{ registry: answer.registry, registry_status: 'pending', registry_serials: answer.registry_serials, registry_due_on: answer.registry_due_on }} />
      {answer.icc && answer.icc.taxable_tons === null ? <CapUnknown year={answer.icc.year} testId="retire-icc-unknown" /> : answer.icc && answer.icc.over_tons > 0 && <CapWarning icc={answer.icc} />}
      <div className="retire-done__actions">
        <a className="btn btn--block" href={certificatePath(answer.id)} data-testid="open-certificate">
          <Trans>View certificate</Trans>
        </a>
        <ShareButton id={answer.id} />
        <Link to="/pages/profile/receipts" search={{ retirement_id: answer.id }} className="btn btn--ghost btn--block" data-testid="retire-receipt">
          <Trans>Receipt</Trans>
        </Link>
        <Link to="/pages/profile/certificates" className="btn btn--ghost btn--block">
          <Trans>My certificates</Trans>
        </Link>
      </div>
    </div>
  );
}

/** A surrender for Singapore carbon tax that passes the year's cap: the tons beyond it do not count. */
function CapWarning({ icc }: { icc: NonNullable<RetireAnswer['icc']> }) {
  const cap = formatTons(icc.cap_tons);
  const over = formatTons(icc.over_tons);
  const year = icc.year;
  return (
    <p className="notice notice--warn" role="status" data-testid="retire-icc-warning">
      <Trans>
        This passes your {year} cap of {cap}: {over} retired for that year do not count against Singapore carbon tax.
      </Trans>
    </p>
  );
}

/** After a member's retirement above the organisation's threshold: it waits for an approver, the tons held
 *  (docs/product.md#approvals). */
export function SentForApproval({ tons }: { tons: number }) {
  return (
    <div className="section retire-done" data-testid="retire-sent-for-approval">
      <h2 className="section-title">
        <Trans>Sent for approval</Trans>
      </h2>
      <p className="muted">
        <Trans>
          Retiring {formatTons(tons)} needs an approver of your organisation. The tons are held until it is approved, declined or expires; the
          certificate is made when it is approved.
        </Trans>
      </p>
      <div className="retire-done__actions">
        <Link to="/pages/org/approvals" className="btn btn--block" data-testid="open-approvals">
          <Trans>See the request</Trans>
        </Link>
      </div>
    </div>
  );
}
