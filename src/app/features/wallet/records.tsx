import { Trans, useLingui } from '@lingui/react/macro';
import { InfiniteList } from '../../components/infinite-list';
import { formatDateTime, formatSgd } from '../../lib/format';
import { serverNow } from '../../lib/server-time';
import { useOnline } from '../../lib/online';
import type { TopupRecord, WithdrawalRecord } from '../../../shared/schemas/wallet';
import { topupMethodLabel, topupStatusLabel, withdrawalStatusLabel } from './labels';
import { StatusChip } from './wallet-parts';

// The top-up and withdrawal record lists (newest first, paged as the end of the list comes near).

interface ListState<T> {
  items: T[];
  total: number | null;
  loading: boolean;
  error: string;
  hasMore: boolean;
  loadMore: () => void;
}

/** `onShow`: a pending, unexpired top-up offers its payment step (QR or transfer details) again. */
export function TopupList({ list, onShow }: { list: ListState<TopupRecord>; onShow?: (record: TopupRecord) => void }) {
  const { i18n } = useLingui();
  return (
    <RecordList list={list} empty={<Trans>No top-ups yet.</Trans>} offline={<Trans>Your top-ups show here when you are online.</Trans>}>
      <ul className="records" data-testid="topup-records">
        {list.items.map((r) => (
          <li key={r.id} className="record card" data-testid="topup-record" data-id={r.id}>
            <div className="record__head">
              <span className="record__amount">{formatSgd(r.status === 'credited' && r.received_amount !== null ? r.received_amount : r.amount)}</span>
              <StatusChip status={r.status}>{i18n._(topupStatusLabel[r.status])}</StatusChip>
            </div>
            <p className="record__meta">
              {i18n._(topupMethodLabel[r.method])} · <Trans>Ref</Trans> <span className="mono">{r.reference}</span>
            </p>
            <p className="record__meta">
              <Trans>Requested {formatDateTime(r.created_at_ms)}</Trans>
              {r.decided_at_ms !== null && (
                <>
                  {' · '}
                  {r.status === 'credited' ? (
                    <Trans>Credited {formatDateTime(r.decided_at_ms)}</Trans>
                  ) : (
                    <Trans>Decided {formatDateTime(r.decided_at_ms)}</Trans>
                  )}
                </>
              )}
            </p>
            {r.status === 'pending' &&
              (r.expires_at_ms !== null && r.expires_at_ms <= serverNow() ? (
                <p className="record__note record__note--bad">
                  <Trans>Expired: please do not pay this request. A payment that still arrives is credited.</Trans>
                </p>
              ) : (
                <>
                  <p className="record__note">
                    <Trans>We credit it once the transfer with this reference arrives.</Trans>
                  </p>
                  {onShow && r.expires_at_ms !== null && (
                    <button type="button" className="btn btn--ghost record__show" onClick={() => onShow(r)} data-testid="topup-show">
                      {r.method === 'paynow' ? <Trans>Show PayNow QR</Trans> : <Trans>Show transfer details</Trans>}
                    </button>
                  )}
                </>
              ))}
            {r.status === 'credited' && r.flag !== '' && (
              <p className="record__note" data-testid="topup-flag" data-flag={r.flag}>
                {r.flag === 'amount' && <Trans>Received {formatSgd(r.received_amount ?? r.amount)}, a different amount: that is what was credited.</Trans>}
                {r.flag === 'late' && <Trans>Paid after the request expired; credited all the same.</Trans>}
                {r.flag === 'double' && <Trans>A second payment under the reference of top-up #{r.first_topup_id ?? ''}.</Trans>}
                {r.flag === 'manual' && <Trans>A payment without a reference, matched to you by our team.</Trans>}
              </p>
            )}
            {r.status === 'rejected' && r.note && (
              <p className="record__note record__note--bad">
                <Trans>Reason: {r.note}</Trans>
              </p>
            )}
          </li>
        ))}
      </ul>
    </RecordList>
  );
}

export function WithdrawalList({ list }: { list: ListState<WithdrawalRecord> }) {
  const { i18n } = useLingui();
  return (
    <RecordList list={list} empty={<Trans>No withdrawals yet.</Trans>} offline={<Trans>Your withdrawals show here when you are online.</Trans>}>
      <ul className="records" data-testid="withdrawal-records">
        {list.items.map((r) => (
          <li key={r.id} className="record card" data-testid="withdrawal-record" data-id={r.id}>
            <div className="record__head">
              <span className="record__amount">{formatSgd(r.amount)}</span>
              <StatusChip status={r.status}>{i18n._(withdrawalStatusLabel[r.status])}</StatusChip>
            </div>
            <p className="record__meta">
              <Trans>
                Fee {formatSgd(r.fee)} · Total {formatSgd(r.total)}
              </Trans>
            </p>
            <p className="record__meta">
              <Trans>To</Trans>{' '}
              {r.method === 'paynow' ? (
                <span className="mono">PayNow {r.paynow}</span>
              ) : (
                <>
                  {r.bank_name} <span className="mono">{r.account_no}</span>
                </>
              )}{' '}
              · {r.holder_name}
            </p>
            <p className="record__meta">
              <Trans>Applied {formatDateTime(r.created_at_ms)}</Trans>
              {r.decided_at_ms !== null && (
                <>
                  {' · '}
                  {r.status === 'completed' ? <Trans>Paid {formatDateTime(r.decided_at_ms)}</Trans> : <Trans>Decided {formatDateTime(r.decided_at_ms)}</Trans>}
                </>
              )}
            </p>
            {r.status === 'processing' && (
              <p className="record__note">
                <Trans>The amount and fee are held in your frozen balance until the transfer is made.</Trans>
              </p>
            )}
            {r.status === 'refused' && (
              <p className="record__note record__note--bad">
                {r.note ? (
                  <Trans>Refused: {r.note}. The amount and fee are back in your available balance.</Trans>
                ) : (
                  <Trans>Refused. The amount and fee are back in your available balance.</Trans>
                )}
              </p>
            )}
          </li>
        ))}
      </ul>
    </RecordList>
  );
}

function RecordList<T>({ list, empty, offline, children }: { list: ListState<T>; empty: React.ReactNode; offline: React.ReactNode; children: React.ReactNode }) {
  const online = useOnline();
  // Nothing loaded yet (offline, or the read failed): say why, not "that is everything" under no rows.
  if (list.total === null && !list.loading) {
    if (list.error) return <p className="notice notice--warn wallet-notice">{list.error}</p>;
    return online ? null : <p className="empty">{offline}</p>;
  }
  return (
    <InfiniteList
      hasMore={list.hasMore}
      loading={list.loading}
      onLoadMore={list.loadMore}
      isEmpty={list.total !== null && list.items.length === 0}
      empty={<p className="empty">{empty}</p>}
    >
      {children}
    </InfiniteList>
  );
}
