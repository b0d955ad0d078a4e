import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Countdown } from './countdown';
import { formatDateTime } from '../lib/format';
import type { Project } from '../../shared/schemas/content';
import './sale-countdown.css';

/** The countdown to the selling time while it is ahead; refreshes the project when it reaches zero. A
 *  pre-sale takes bookings until its selling time (docs/product.md#pre-sale): its card leads with that, and
 *  counts down to when bookings close, so nothing beside a working Book button reads as "not open yet". */
export function SaleCountdown({ project, onDone, large = false, children }: { project: Project; onDone: () => void; large?: boolean; children?: ReactNode }) {
  const opens = formatDateTime(project.selling_time_ms);
  const grade = project.required_grade;
  const presale = project.status === 'presale';
  return (
    <section className={large ? 'sale-countdown sale-countdown--large card' : 'sale-countdown card'} aria-labelledby="sale-countdown-title">
      {presale && (
        <p className="sale-countdown__now" data-testid="presale-booking-open">
          {grade > 0 ? <Trans>Pre-sale bookings are open now to members P{grade} and above.</Trans> : <Trans>Pre-sale bookings are open now.</Trans>}
        </p>
      )}
      <h2 id="sale-countdown-title" className="sale-countdown__title">
        {presale ? <Trans>Bookings close in</Trans> : <Trans>Sale opens in</Trans>}
      </h2>
      <Countdown to={project.selling_time_ms} onDone={onDone} className="sale-countdown__timer" />
      <p className="muted sale-countdown__when">
        {presale ? <Trans>Bookings close {opens} (Singapore time)</Trans> : <Trans>Opens {opens} (Singapore time)</Trans>}
      </p>
      {children}
    </section>
  );
}
