import { useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { formatDate, formatDateTime, formatTons } from '../../lib/format';
import { PACK_HASH, type PackVerdict } from '../../../shared/schemas/icc';
import { sha256Hex, verifyPack } from './api';
import './carbontax.css';

// Public, no login: /verify and /verify/<sha256> (docs/product.md#singapore-carbon-tax). It says whether
// Canopy issued an evidence pack with a fingerprint: when, for which account, which period. A file dropped
// here is fingerprinted in the browser (it never leaves the device) and checked the same way, so a file
// with one byte changed reads "not issued by Canopy".

/** Far above any pack Canopy issues (at most three years of rows): a larger file is refused before it is
 *  read, as the fingerprint reads the whole file into the page's memory. */
const MAX_PACK_BYTES = 64 * 1024 * 1024;

type Check = { state: 'idle' } | { state: 'checking' } | { state: 'issued'; verdict: PackVerdict; file: boolean } | { state: 'refused'; msg: string };

function Result({ check }: { check: Check }) {
  if (check.state === 'idle') return null;
  if (check.state === 'checking')
    return (
      <p className="muted">
        <Trans>Checking…</Trans>
      </p>
    );
  if (check.state === 'refused')
    return (
      <p className="card section verify-result verify-result--bad" role="status" data-testid="verify-result" data-issued="false">
        {check.msg}
      </p>
    );
  const v = check.verdict;
  const when = formatDateTime(v.issued_at_ms);
  const { account } = v;
  // The period's days are SGT calendar days: their SGT midnight, written in the page's language.
  const first = formatDate(Date.parse(`${v.period_from}T00:00:00+08:00`));
  const last = formatDate(Date.parse(`${v.period_to}T00:00:00+08:00`));
  return (
    <div className="card section verify-result verify-result--ok" role="status" data-testid="verify-result" data-issued="true">
      <p>
        <strong>
          <Trans>Issued by Canopy</Trans>
        </strong>
      </p>
      <p>
        <Trans>
          Issued on {when} (SGT) for {account}, covering {first} to {last}.
        </Trans>
      </p>
      {check.file && (
        <p data-testid="verify-unchanged">
          <Trans>This file is unchanged: its fingerprint is the one Canopy recorded.</Trans>
        </p>
      )}
      <code className="icc-hash">{v.hash}</code>
      <PackRetirements verdict={v} />
    </div>
  );
}

/** The pack's retirements as they stand on their registry now: the serials, and cancelled with the
 *  registry's reference and day, or waiting (docs/product.md#registry-cancellation). */
function PackRetirements({ verdict }: { verdict: PackVerdict }) {
  // A verdict kept from before these facts existed has none to show.
  const list = (verdict.retirements as PackVerdict['retirements'] | undefined) ?? [];
  if (list.length === 0) return null;
  return (
    <section className="verify-retirements" data-testid="verify-retirements">
      <h2 className="section-title">
        <Trans>Retirements on the registry</Trans>
      </h2>
      <ul>
        {list.map((r) => (
          <li key={r.certificate_id} data-testid="verify-retirement" data-status={r.registry_status}>
            <p>
              <a href={`/certificate/${r.certificate_id}`}>{r.certificate_id}</a> · {formatTons(r.tons)} · {formatDateTime(r.retired_at_ms)}
            </p>
            <RegistryLine r={r} />
            {r.registry_serials.map((s) => (
              <code key={s} className="verify-retirements__serial">
                {s}
              </code>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RegistryLine({ r }: { r: PackVerdict['retirements'][number] }) {
  const registry = r.registry;
  if (r.registry_status === 'cancelled') {
    // A day as the page writes days (3 Dec 2026 / 2026年12月3日), not the wire's ISO date.
    const day = r.registry_cancelled_on ? formatDate(Date.parse(`${r.registry_cancelled_on}T00:00:00+08:00`)) : '';
    const reference = r.registry_reference ?? '';
    return (
      <p>
        <Trans>
          Cancelled on {registry} on {day}, reference {reference}
        </Trans>
      </p>
    );
  }
  return (
    <p className="muted">
      <Trans>Waiting to be cancelled on {registry}: it counts toward the cap once cancelled.</Trans>
    </p>
  );
}

export function VerifyPage({ hash }: { hash?: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [typed, setTyped] = useState('');
  const [fileName, setFileName] = useState('');
  const run = async (h: string, file: boolean) => {
    setCheck({ state: 'checking' });
    const res = await verifyPack(h.toLowerCase());
    setCheck(res.code === 0 ? { state: 'issued', verdict: res.data, file } : { state: 'refused', msg: res.msg });
  };
  useEffect(() => {
    if (hash) void run(hash, false);
  }, [hash]);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setFileName(file.name);
    if (file.size > MAX_PACK_BYTES) {
      setCheck({ state: 'refused', msg: t`This file is too large to be a Canopy evidence pack.` });
      return;
    }
    setCheck({ state: 'checking' });
    const hash = await sha256Hex(file).catch(() => null);
    if (hash) await run(hash, true);
    else setCheck({ state: 'refused', msg: t`This file could not be read.` });
  };
  return (
    <div className="page verify-page">
      <NavBar title={t`Check an evidence pack`} />
      <section className="section">
        <p className="muted">
          <Trans>Choose the pack file: its fingerprint (SHA-256) is computed on this device and checked against the packs Canopy issued.</Trans>
        </p>
        {/* The browser's own file button is small and unstyled: the input is hidden for sight only, and its
            label is the 48 px button a thumb taps (and the keyboard reaches through the input's focus). */}
        <input
          id="verify-file"
          className="verify-page__file"
          type="file"
          accept=".pdf,.csv,application/pdf,text/csv"
          data-testid="verify-file"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        <label className="btn btn--ghost btn--block verify-page__pick" htmlFor="verify-file" data-testid="verify-pick">
          <Trans>Choose the pack file (PDF or CSV)</Trans>
        </label>
        {fileName && (
          <p className="muted verify-page__name" data-testid="verify-file-name">
            {fileName}
          </p>
        )}
      </section>
      <Result check={check} />
      <form
        className="section"
        onSubmit={(e) => {
          e.preventDefault();
          const h = typed.trim().toLowerCase();
          if (PACK_HASH.test(h)) void navigate({ to: '/verify/$hash', params: { hash: h } });
          else setCheck({ state: 'refused', msg: t`A fingerprint is 64 characters, 0-9 and a-f.` });
        }}
      >
        <label className="field__label" htmlFor="verify-hash">
          <Trans>Or paste a fingerprint</Trans>
        </label>
        <input id="verify-hash" className="input" data-testid="verify-hash" value={typed} onChange={(e) => setTyped(e.target.value)} spellCheck={false} autoComplete="off" />
        <button type="submit" className="btn btn--ghost btn--block verify-page__check" data-testid="verify-check">
          <Trans>Check</Trans>
        </button>
      </form>
    </div>
  );
}
