import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import QRCode from 'qrcode';
import { Countdown } from '../../components/countdown';
import { QrSvg } from '../../components/qr-svg';
import { showToast } from '../../components/toast';
import { copyText } from '../../lib/clipboard';
import { formatSgd } from '../../lib/format';
import { serverNow } from '../../lib/server-time';
import { useCompany } from '../../lib/storage';
import { parsePayNowPayload, amountText, type PayNowFields } from '../../../shared/paynow';
import type { TopupRecord } from '../../../shared/schemas/wallet';
import { PLATFORM_BANK } from './payee';
import { StatusChip } from './wallet-parts';
import './paynow.css';

// The payment step of one top-up (docs/decisions/0014-paynow.md): for PayNow, the dynamic QR of exactly this
// top-up (payee, fixed amount, reference, expiry) with "Save QR" (a PNG a bank app can scan from the gallery)
// and copy buttons, since a phone cannot scan its own screen; for a bank transfer, the account and the
// reference with copy buttons. A countdown to the expiry; once expired it says so and offers a fresh request.
// The record is the live one from the list, which reloads on the socket's invalidation: it turns "credited"
// here without a reload.

function CopyRow({ label, value, shown, testId }: { label: string; value: string; shown?: string; testId: string }) {
  const { t } = useLingui();
  return (
    <div className="summary__row paynow-copy">
      <dt>{label}</dt>
      <dd>
        <span className="mono" data-testid={`${testId}-value`}>
          {shown ?? value}
        </span>
        <button
          type="button"
          className="btn btn--ghost paynow-copy__btn"
          data-testid={`${testId}-copy`}
          aria-label={t`Copy ${label}`}
          onClick={() => void copyText(value).then((ok) => showToast(ok ? t`Copied: ${value}` : t`Could not copy. Please select the text.`, ok ? 'success' : 'error'))}
        >
          <Trans>Copy</Trans>
        </button>
      </dd>
    </div>
  );
}

async function saveQr(payload: string, reference: string): Promise<void> {
  const url = await QRCode.toDataURL(payload, {
    errorCorrectionLevel: 'M',
    width: 720,
    margin: 4,
  });
  const a = document.createElement('a');
  a.href = url;
  a.download = `canopy-paynow-${reference}.png`;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function PaymentPanel({ topup, onFresh, freshBusy, onDone }: { topup: TopupRecord; onFresh: () => void; freshBusy: boolean; onDone: () => void }) {
  const { t } = useLingui();
  const company = useCompany();
  const expiresAt = topup.expires_at_ms;
  const [expired, setExpired] = useState(() => expiresAt !== null && serverNow() >= expiresAt);
  const fields: PayNowFields | null = useMemo(() => {
    if (!topup.paynow_qr) return null;
    try {
      return parsePayNowPayload(topup.paynow_qr);
    } catch {
      return null;
    }
  }, [topup.paynow_qr]);
  const pending = topup.status === 'pending';
  const paynow = topup.method === 'paynow';

  if (topup.status === 'credited') {
    const received = topup.received_amount ?? topup.amount;
    return (
      <section className="card wallet-card paynow-done" data-testid="topup-credited" aria-live="polite">
        <StatusChip status="credited">
          <Trans>Credited</Trans>
        </StatusChip>
        <h2 className="wallet-card__title paynow-done__title">
          <Trans>{formatSgd(received)} is in your available balance.</Trans>
        </h2>
        <p className="paynow-muted">
          <Trans>Reference</Trans> <span className="mono">{topup.reference}</span>
        </p>
        {topup.flag === 'amount' && (
          <p className="notice" role="note">
            <Trans>
              You asked for {formatSgd(topup.amount)}; we received and credited {formatSgd(received)}.
            </Trans>
          </p>
        )}
        <button type="button" className="btn btn--block" onClick={onDone} data-testid="topup-again">
          <Trans>Top up again</Trans>
        </button>
      </section>
    );
  }

  return (
    <section className="card wallet-card paynow" aria-labelledby="paynow-title" data-testid="payment-panel" data-status={topup.status}>
      <div className="paynow__head">
        <h2 className="wallet-card__title" id="paynow-title">
          {paynow ? <Trans>Scan to pay with PayNow</Trans> : <Trans>Transfer to</Trans>}
        </h2>
        {pending && !expired && (
          <StatusChip status="pending">
            <Trans>Waiting for payment</Trans>
          </StatusChip>
        )}
        {topup.status === 'rejected' && (
          <StatusChip status="rejected">
            <Trans>Rejected</Trans>
          </StatusChip>
        )}
      </div>

      <p className="paynow__amount" data-testid="payment-amount">
        {formatSgd(topup.amount)}
      </p>

      {paynow && topup.paynow_qr && (
        <div className={expired ? 'paynow-qr paynow-qr--expired' : 'paynow-qr'}>
          <QrSvg
            text={topup.paynow_qr}
            label={t`PayNow QR for ${formatSgd(topup.amount)}, reference ${topup.reference}`}
            className="paynow-qr__svg"
            data-testid="paynow-qr"
            data-payload={topup.paynow_qr}
          />
        </div>
      )}

      {pending && expiresAt !== null && !expired && (
        <p className="paynow__expiry">
          <Trans>Pay within</Trans> <Countdown to={expiresAt} onDone={() => setExpired(true)} />
        </p>
      )}
      {pending && expired && (
        <div className="notice paynow__expired" role="alert" data-testid="payment-expired">
          <p>
            <Trans>This request has expired. Please do not pay it: get a fresh one for the same amount.</Trans>
          </p>
          <button type="button" className="btn btn--block" onClick={onFresh} disabled={freshBusy} data-testid="payment-fresh">
            {paynow ? <Trans>Get a fresh QR</Trans> : <Trans>Get fresh transfer details</Trans>}
          </button>
        </div>
      )}

      {paynow && topup.paynow_qr && !expired && (
        <button
          type="button"
          className="btn btn--block paynow__save"
          data-testid="paynow-save"
          onClick={() => void saveQr(topup.paynow_qr!, topup.reference).then(() => showToast(t`QR saved. Open your bank app and scan it from your photos.`, 'success'))}
        >
          <Trans>Save QR</Trans>
        </button>
      )}

      {!(pending && expired) && (
        <>
          <dl className="summary paynow__details">
            {paynow ? (
              <>
                <div className="summary__row">
                  <dt>
                    <Trans>Name</Trans>
                  </dt>
                  <dd>{fields?.name ?? company?.name}</dd>
                </div>
                <CopyRow label="UEN" value={fields?.uen ?? company?.uen ?? ''} testId="copy-uen" />
              </>
            ) : (
              <>
                <div className="summary__row">
                  <dt>
                    <Trans>Name</Trans>
                  </dt>
                  <dd>{company?.name}</dd>
                </div>
                <div className="summary__row">
                  <dt>
                    <Trans>Bank</Trans>
                  </dt>
                  <dd>{PLATFORM_BANK.bank}</dd>
                </div>
                <CopyRow label={t`Account`} value={PLATFORM_BANK.account.replace(/-/g, '')} shown={PLATFORM_BANK.account} testId="copy-account" />
              </>
            )}
            <CopyRow label={t`Amount`} value={amountText(topup.amount)} shown={formatSgd(topup.amount)} testId="copy-amount" />
            <CopyRow label={t`Reference`} value={topup.reference} testId="copy-reference" />
          </dl>
          <p className="payee__warn" role="note">
            {paynow ? (
              <Trans>Scan the QR in your bank app, or pay the UEN by hand with exactly this amount and reference. We credit it when it arrives.</Trans>
            ) : (
              <Trans>Transfer exactly this amount and put the reference in the transfer's reference or comments field. We credit it when it arrives.</Trans>
            )}
          </p>
        </>
      )}
      <button type="button" className="btn btn--ghost btn--block" onClick={onDone} data-testid="payment-close">
        <Trans>New top-up</Trans>
      </button>
    </section>
  );
}
