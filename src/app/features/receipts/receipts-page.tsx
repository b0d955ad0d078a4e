import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { formatDateTime, formatSgd, formatTons, pick } from '../../lib/format';
import { useMemberId } from '../../lib/user-info';
import type { Receipt } from '../../../shared/schemas/receipt';
import { downloadReceiptPdf, useReceipts, type ReceiptFilter } from './api';
import { paymentMethodLabel, receiptKindLabel } from './labels';
import './receipts.css';

// /pages/profile/receipts: the member's receipts of an order, a fund-log entry or a retirement (all of them
// without a filter), each as its mail shows it, with its PDF to download. Kept in Dexie: reads offline.

export function ReceiptsPage({ filter }: { filter: ReceiptFilter }) {
  const { t } = useLingui();
  const memId = useMemberId();
  const { list, error, online } = useReceipts(memId, filter);
  return (
    <div className="page receipts-page">
      <NavBar title={t`Receipts`} />
      <OfflineBar />
      {memId <= 0 ? (
        <p className="empty">
          <Trans>Log in to see your receipts.</Trans>
        </p>
      ) : !list ? (
        <p className="empty">{!online ? t`Your receipts are not saved on this device yet.` : error || t`Loading…`}</p>
      ) : list.length === 0 ? (
        <p className="empty" data-testid="receipts-empty">
          <Trans>No receipt here yet.</Trans>
        </p>
      ) : (
        <ul className="section receipts">
          {list.map((r) => (
            <ReceiptCard key={r.id} r={r} online={online} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** Rows holding a code (a reference, serial numbers): their value takes the card's whole width under the
 *  label, so the code fits on its line instead of breaking inside. */
const WIDE_ROWS: ReadonlySet<string> = new Set(['reference', 'serials']);

function ReceiptCard({ r, online }: { r: Receipt; online: boolean }) {
  const { t, i18n } = useLingui();
  const [problem, setProblem] = useState('');
  const rows: Array<[string, string, string]> = [
    [t`Date (SGT)`, formatDateTime(r.created_at_ms), 'date'],
    [t`Reference`, r.reference, 'reference'],
    [t`Project`, r.project_name ? pick(r, 'project_name') : '', 'project'],
    [t`Quantity`, r.tons > 0 ? formatTons(r.tons) : '', 'tons'],
    [t`Serial numbers`, r.serials.map((s) => (s.from === s.to ? s.from : `${s.from}\u00a0– ${s.to}`)).join('\n'), 'serials'],
    [t`Unit price`, r.unit_price > 0 ? formatSgd(r.unit_price) : '', 'unit-price'],
    [t`Fees`, formatSgd(r.fee), 'fee'],
    [t`Total`, formatSgd(r.total), 'total'],
    [t`Payment method`, r.payment_method === 'none' ? '' : i18n._(paymentMethodLabel[r.payment_method]), 'method'],
  ];
  const download = async () => {
    setProblem('');
    const res = await downloadReceiptPdf(r);
    if (res.code !== 0) setProblem(res.msg);
  };
  return (
    <li className="card receipt" data-testid="receipt" data-kind={r.kind}>
      <div className="receipt__top">
        <h2 className="receipt__title">
          <Trans>Receipt no. {r.number}</Trans>
        </h2>
        <span className="muted">{i18n._(receiptKindLabel[r.kind])}</span>
      </div>
      <dl className="receipt__rows">
        {rows
          .filter(([, value]) => value !== '')
          .map(([label, value, id]) => (
            <div key={id} data-testid={`receipt-${id}`} className={WIDE_ROWS.has(id) ? 'receipt__row--wide' : undefined}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      {r.certificate_url && (
        <p>
          <a className="tap-link" href={r.certificate_url} data-testid="receipt-certificate">
            <Trans>Certificate</Trans>
          </a>
        </p>
      )}
      <p className="receipt__seller muted">
        {r.company.name} · <Trans>UEN {r.company.uen}</Trans>
        <br />
        {r.company.address}
      </p>
      <button type="button" className="btn btn--ghost btn--block" disabled={!online} onClick={() => void download()} data-testid="receipt-pdf">
        <Trans>Download PDF</Trans>
      </button>
      {problem && <p className="notice notice--danger">{problem}</p>}
    </li>
  );
}
