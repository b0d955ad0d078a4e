import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { FormAlert } from '../../components/forms/form-alert';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { formatTons } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { useMemberId } from '../../lib/user-info';
import type { IccCap } from '../../../shared/schemas/icc';
import { fetchCap, saveEmissions } from './api';
import { PackSection } from './pack-section';
import { complianceYear, complianceYears } from '../../lib/compliance-years';
import './carbontax.css';

// /pages/profile/carbontax: the account's Singapore carbon tax (docs/product.md#singapore-carbon-tax). Per
// compliance year it enters its taxable emissions and reads the cap (5%, rounded down), the eligible tons it
// holds, the tons retired for the year and the room left; below, the evidence pack for a period.

function CapFigures({ cap }: { cap: IccCap }) {
  const { t } = useLingui();
  const rows: Array<[string, string, string]> = [
    [t`Taxable emissions`, cap.taxable_tons === null ? t`Not entered` : formatTons(cap.taxable_tons), 'taxable'],
    [t`Cap (5%)`, formatTons(cap.cap_tons), 'cap'],
    [t`Eligible credits you hold`, formatTons(cap.held_eligible_tons), 'held'],
    [t`Retired for this year, cancelled on the registry`, formatTons(cap.retired_tons), 'retired'],
    [t`Waiting to be cancelled on the registry (counts once cancelled)`, formatTons(cap.pending_tons), 'pending'],
    [t`Room left`, formatTons(cap.room_tons), 'room'],
  ];
  return (
    <dl className="card icc-cap" data-testid="icc-cap">
      {rows.map(([label, value, id]) => (
        <div className="icc-cap__row" key={id}>
          <dt>{label}</dt>
          <dd data-testid={`icc-cap-${id}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function OverCap({ tons }: { tons: number }) {
  const over = formatTons(tons);
  return (
    <p className="notice notice--warn" role="status" data-testid="icc-cap-over">
      <Trans>{over} retired for this year are beyond the cap and do not count.</Trans>
    </p>
  );
}

function EmissionsForm({ year, onSaved }: { year: number; onSaved: (cap: IccCap) => void }) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const write = useWrite(saveEmissions);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await write.run({ year, taxable_tons: /^\d{1,10}$/.test(text.trim()) ? Number(text.trim()) : -1 });
    if (res?.code === 0) onSaved(res.data);
  };
  return (
    <form className="section icc-emissions" onSubmit={(e) => void submit(e)} noValidate>
      <label className="field__label" htmlFor="icc-taxable">
        <Trans>Taxable emissions for {year} (tCO₂e)</Trans>
      </label>
      <input id="icc-taxable" className="input" inputMode="numeric" data-testid="icc-taxable" value={text} onChange={(e) => setText(e.target.value.replace(/[^\d]/g, ''))} placeholder={t`e.g. 100000`} />
      <FormAlert id="icc-emissions-error" message={write.error} />
      <SubmitButton busy={write.busy} testId="icc-save">
        <Trans>Save</Trans>
      </SubmitButton>
    </form>
  );
}

export function CarbonTaxPage({ initialYear }: { initialYear?: number }) {
  const { t } = useLingui();
  const memId = useMemberId();
  const online = useOnline();
  const [year, setYear] = useState(() => initialYear ?? complianceYear());
  const [cap, setCap] = useState<IccCap | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(async () => {
    const res = await fetchCap(year);
    if (res.code === 0) setCap(res.data);
    else setError(res.msg);
  }, [year]);
  useEffect(() => {
    if (memId > 0 && online) void load();
  }, [load, memId, online]);
  return (
    <div className="page carbontax-page">
      <NavBar title={t`Singapore carbon tax`} />
      <OfflineBar />
      {memId <= 0 ? (
        <p className="empty">
          <Trans>Log in to see your carbon tax cap.</Trans>
        </p>
      ) : (
        <>
          <section className="section">
            <p className="muted">
              <Trans>A company liable for Singapore carbon tax may cover up to 5% of its taxable emissions with eligible international carbon credits.</Trans>
            </p>
            <label className="field__label" htmlFor="icc-year">
              <Trans>Compliance year</Trans>
            </label>
            <select id="icc-year" className="input" data-testid="icc-year" value={year} onChange={(e) => setYear(Number(e.target.value))}>
              {complianceYears().map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </section>
          {cap && cap.year === year ? <CapFigures cap={cap} /> : <p className="empty">{!online ? t`The cap needs a connection.` : error || t`Loading…`}</p>}
          {cap && cap.over_tons > 0 && <OverCap tons={cap.over_tons} />}
          <EmissionsForm year={year} onSaved={setCap} />
          <p className="section">
            <Link to="/pages/project/index" search={{ icc: 'eligible' }} className="btn btn--ghost btn--block">
              <Trans>Browse eligible projects</Trans>
            </Link>
          </p>
          <PackSection />
        </>
      )}
    </div>
  );
}
