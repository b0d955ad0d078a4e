import { Trans } from '@lingui/react/macro';
import { formatTons, pick } from '../../lib/format';
import { WrapSelect } from '../../components/forms/wrap-select';
import { BENEFICIARY_MAX, REASON_MAX } from '../../../shared/schemas/retire';
import type { CreditHolding } from '../../../shared/schemas/order';
import { complianceYears } from '../../lib/compliance-years';

// The retire form's fields. Each shows its error only once the form was submitted (`error` is then set),
// except the reason, whose length is counted as it is typed.

export function ProjectField({
  holdings,
  project,
  onProject,
  held,
  pendingSale,
}: {
  holdings: CreditHolding[];
  project: number | null;
  onProject: (id: number) => void;
  held: number;
  pendingSale: number;
}) {
  const chosen = holdings.find((h) => h.project_id === project);
  const chosenLabel = chosen ? `${pick(chosen, 'project_name')} · ${formatTons(chosen.tons)}` : '';
  return (
    <div className="field">
      <label className="field__label" htmlFor="retire-project">
        <Trans>Project</Trans>
      </label>
      <WrapSelect shown={chosenLabel} id="retire-project" data-testid="retire-project" value={project ?? ''} onChange={(e) => onProject(Number(e.target.value))}>
        {holdings.map((h) => (
          <option key={h.project_id} value={h.project_id}>
            {pick(h, 'project_name')} · {formatTons(h.tons)}
          </option>
        ))}
      </WrapSelect>
      <p className="field__hint" data-testid="retire-held">
        {pendingSale > 0 ? (
          <Trans>
            You can retire up to {formatTons(held)}. {formatTons(pendingSale)} pending sale cannot be retired.
          </Trans>
        ) : (
          <Trans>You can retire up to {formatTons(held)}.</Trans>
        )}
      </p>
    </div>
  );
}

export function TonsField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error: string }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor="retire-tons">
        <Trans>Tons to retire</Trans>
      </label>
      <input
        id="retire-tons"
        className="input"
        data-testid="retire-tons"
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? 'retire-tons-error' : undefined}
      />
      {error && (
        <p className="field__error" id="retire-tons-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function BeneficiaryField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error: string }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor="retire-beneficiary">
        <Trans>Beneficiary</Trans>
      </label>
      <input
        id="retire-beneficiary"
        className="input"
        data-testid="retire-beneficiary"
        value={value}
        maxLength={BENEFICIARY_MAX + 20}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? 'retire-beneficiary-error' : 'retire-beneficiary-hint'}
      />
      {error ? (
        <p className="field__error" id="retire-beneficiary-error">
          {error}
        </p>
      ) : (
        <p className="field__hint" id="retire-beneficiary-hint">
          <Trans>The person or company the credits are retired for, as printed on the certificate.</Trans>
        </p>
      )}
    </div>
  );
}

export function ReasonField({ reason, onChange, error }: { reason: string; onChange: (v: string) => void; error: string }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor="retire-reason">
        <Trans>Reason (optional)</Trans>
      </label>
      <textarea
        id="retire-reason"
        className="input retire-form__reason"
        data-testid="retire-reason"
        rows={3}
        value={reason}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby="retire-reason-hint"
      />
      <p className={error ? 'field__error' : 'field__hint'} id="retire-reason-hint">
        {error || <Trans>{[...reason].length} of {REASON_MAX} characters</Trans>}
      </p>
    </div>
  );
}

/** What the certificate makes public, and the choice to show the beneficiary as "a Canopy customer"
 *  (docs/product.md#retirement): the name and the reason then stay with the member. */
export function PrivacyField({ hidden, onChange }: { hidden: boolean; onChange: (hidden: boolean) => void }) {
  return (
    <div className="field retire-privacy">
      <p className="notice" id="retire-privacy-notice" data-testid="retire-privacy-notice">
        {hidden ? (
          <Trans>
            The public certificate and its PDF show the beneficiary as “a Canopy customer” and leave the reason out. Serial numbers, project, tons and date are always public.
          </Trans>
        ) : (
          <Trans>
            The beneficiary and the reason are printed on the public certificate and its PDF: anyone with the certificate&apos;s link or QR code can read them. Serial numbers, project, tons and date are
            always public.
          </Trans>
        )}
      </p>
      <label className="check" htmlFor="retire-hide-beneficiary">
        <span className="check__hit">
          <input
            id="retire-hide-beneficiary"
            type="checkbox"
            data-testid="retire-hide-beneficiary"
            checked={hidden}
            onChange={(e) => onChange(e.target.checked)}
            aria-describedby="retire-privacy-notice"
          />
        </span>
        <span>
          <Trans>Show the beneficiary as “a Canopy customer” and keep the reason private</Trans>
        </span>
      </label>
    </div>
  );
}

/** A retirement surrendered against Singapore carbon tax for a compliance year (docs/product.md#singapore-carbon-tax):
 *  the server refuses credits that are not eligible, saying why, and warns past the year's cap. */
export function CarbonTaxField({ year, onChange }: { year: number | null; onChange: (year: number | null) => void }) {
  const years = complianceYears();
  return (
    <div className="field retire-icc">
      <label className="check" htmlFor="retire-icc">
        <span className="check__hit">
          <input id="retire-icc" type="checkbox" data-testid="retire-icc" checked={year !== null} onChange={(e) => onChange(e.target.checked ? years[1] ?? years[0]! : null)} />
        </span>
        <span>
          <Trans>For Singapore carbon tax</Trans>
        </span>
      </label>
      {year !== null && (
        <>
          <label className="field__label" htmlFor="retire-icc-year">
            <Trans>Compliance year</Trans>
          </label>
          <select id="retire-icc-year" className="input" data-testid="retire-icc-year" value={year} onChange={(e) => onChange(Number(e.target.value))}>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
}
