import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';

/** A surrender for Singapore carbon tax with no taxable emissions entered for its year: the cap is not 0 t,
 *  it is not known yet (docs/product.md#singapore-carbon-tax); the link opens that year on the cap screen. */
export function CapUnknown({ year, testId }: { year: number; testId: string }) {
  return (
    <p className="notice" role="status" data-testid={testId}>
      <Trans>
        Your {year} cap is not known until you enter your taxable emissions for {year}; until then nothing shows whether these tons count against Singapore carbon tax.{' '}
        <Link to="/pages/profile/carbontax" search={{ year }}>
          Enter emissions
        </Link>
      </Trans>
    </p>
  );
}
