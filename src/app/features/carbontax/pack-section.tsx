import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FormAlert } from '../../components/forms/form-alert';
import { useOnline } from '../../lib/online';
import { downloadPack, saveFile } from './api';

// The evidence pack for a period: downloaded as PDF or CSV, its SHA-256 shown with the link to the public
// check page, where an auditor can drop the file (docs/product.md#singapore-carbon-tax).

const today = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
const yearStart = () => `${today().slice(0, 4)}-01-01`;

export function PackSection() {
  const { t } = useLingui();
  const online = useOnline();
  const [from, setFrom] = useState(yearStart);
  const [to, setTo] = useState(today);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [issued, setIssued] = useState<{ hash: string; filename: string } | null>(null);
  const get = async (format: 'pdf' | 'csv') => {
    setBusy(true);
    setError('');
    try {
      const res = await downloadPack({ from, to, format });
      if (!res.ok) {
        setError(res.msg || t`The pack could not be made. Please try again.`);
        return;
      }
      saveFile(res.blob, res.filename);
      setIssued({ hash: res.hash, filename: res.filename });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="section icc-pack" aria-labelledby="icc-pack-title">
      <h2 className="section-title" id="icc-pack-title">
        <Trans>Evidence pack for your auditor</Trans>
      </h2>
      <p className="muted">
        <Trans>Every purchase and retirement of the period, with eligibility, serial numbers, amounts in SGD and the GST treatment.</Trans>
      </p>
      <div className="icc-pack__dates">
        <label className="field__label" htmlFor="icc-from">
          <Trans>From</Trans>
        </label>
        <input id="icc-from" className="input" type="date" data-testid="icc-from" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label className="field__label" htmlFor="icc-to">
          <Trans>To</Trans>
        </label>
        <input id="icc-to" className="input" type="date" data-testid="icc-to" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <FormAlert id="icc-pack-error" message={error} />
      <div className="icc-pack__actions">
        <button type="button" className="btn" disabled={busy || !online} onClick={() => void get('pdf')} data-testid="icc-pack-pdf">
          <Trans>Download PDF</Trans>
        </button>
        <button type="button" className="btn btn--ghost" disabled={busy || !online} onClick={() => void get('csv')} data-testid="icc-pack-csv">
          <Trans>Download CSV</Trans>
        </button>
      </div>
      {issued && <Issued hash={issued.hash} filename={issued.filename} />}
    </section>
  );
}

function Issued({ hash, filename }: { hash: string; filename: string }) {
  return (
    <div className="notice icc-pack__issued" data-testid="icc-pack-issued">
      <p>
        <Trans>Saved {filename}. Its SHA-256 fingerprint:</Trans>
      </p>
      <code className="icc-hash" data-testid="icc-pack-hash">
        {hash}
      </code>
      <Link to="/verify/$hash" params={{ hash }} data-testid="icc-pack-verify">
        <Trans>Open its public check page</Trans>
      </Link>
    </div>
  );
}
