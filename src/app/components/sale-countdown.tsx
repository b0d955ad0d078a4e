import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Countdown } from './countdown';
import { formatDateTime } from '../lib/format';
import type { Project } from '../../shared/schemas/content';
import './sale-countdown.css';

/** The countdown to the selling time while it is ahead; refreshes the project when it reaches zero. */
export function SaleCountdown({ project, onDone, large = false, children }: { project: Project; onDone: () => void; large?: boolean; children?: ReactNode }) {
  const opens = formatDateTime(project.selling_time_ms);
  const grade = project.required_grade;
  return (
    <section className={large ? 'sale-countdown sale-countdown--large card' : 'sale-countdown card'} aria-labelledby="sale-countdown-title">
      <h2 id="sale-countdown-title" className="sale-countdown__title">
        {project.status === 'presale' ? <Trans>Buying opens in</Trans> : <Trans>Sale opens in</Trans>}
      </h2>
      <Countdown to={project.selling_time_ms} onDone={onDone} className="sale-countdown__timer" />
      <p className="muted sale-countdown__when">
        <Trans>Opens {opens} (Singapore time)</Trans>
      </p>
      {project.status === 'presale' && (
        // A pre-sale takes bookings until its selling time (docs/product.md#pre-sale); the time ahead is when
        // it opens for buying, so the countdown must not read as "cannot join yet" beside a working Book
        // button.
        <p className="sale-countdown__now" data-testid="presale-booking-open">
          {grade > 0 ? <Trans>Pre-sale bookings are open now to members P{grade} and above.</Trans> : <Trans>Pre-sale bookings are open now.</Trans>}
        </p>
      )}
      {children}
    </section>
  );
}
