import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { RECEIPT_OF_ENTRY } from '../../../shared/schemas/receipt';
import { InfiniteList } from '../../components/infinite-list';
import { formatAmount, formatDateTime, pick } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useFundLogs, type StoredFundLog } from './api';
import { fundLogDirection } from './amount';
import { Amount } from '../../components/amount';
import { FUND_LOG_KINDS, accountNameLabel, balanceAfterLabel, fundLogKindChip, kindLabel } from './labels';
import { WalletPage } from './wallet-parts';

// /pages/profile/fundlogs: every movement of the member's balances, newest first, paged as the end of the
// list comes near, filterable by kind. Rows are kept in Dexie, so the list reads offline.

export function FundLogsPage({ kind }: { kind: string }) {
  const { t } = useLingui();
  return (
    <WalletPage title={t`Fund logs`}>
      <FundLogsScreen kind={kind} />
    </WalletPage>
  );
}

function FundLogsScreen({ kind }: { kind: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const list = useFundLogs(kind);
  const choose = (next: string) => void navigate({ to: '/pages/profile/fundlogs', search: next ? { kind: next } : {}, replace: true });
  return (
    <>
      <div className="chips" role="group" aria-label={t`Filter by kind`} data-testid="fundlog-filter">
        <button type="button" className="chip" aria-pressed={kind === ''} onClick={() => choose('')}>
          <Trans>All</Trans>
        </button>
        {FUND_LOG_KINDS.map((k) => (
          <button type="button" key={k} className="chip" aria-pressed={kind === k} onClick={() => choose(k)} data-kind={k}>
            {i18n._(fundLogKindChip[k])}
          </button>
        ))}
      </div>
      <section className="section fundlogs" aria-label={t`Fund logs`}>
        {list.logs === undefined ? null : (
          <InfiniteList
            hasMore={list.hasMore}
            loading={list.loading}
            onLoadMore={list.loadMore}
            isEmpty={list.logs.length === 0}
            empty={
              <p className="empty">
                {list.online ? <Trans>No movements yet.</Trans> : <Trans>No saved fund logs on this device. Connect to the internet to load them.</Trans>}
              </p>
            }
          >
            <ul className="fundlog-list card">
              {list.logs.map((row) => (
                <FundLogItem key={row.id} row={row} />
              ))}
            </ul>
          </InfiniteList>
        )}
      </section>
    </>
  );
}

function FundLogItem({ row }: { row: StoredFundLog }) {
  const { t, i18n } = useLingui();
  const orderNo = row.order_no;
  const direction = fundLogDirection(row);
  const english = currentLocale() === 'en';
  const balance = balanceAfterLabel(row.account_name);
  return (
    <li className="fundlog" data-testid="fundlog-row" data-kind={row.kind}>
      <div className="fundlog__main">
        <p className="fundlog__kind">{i18n._(kindLabel(row.kind))}</p>
        <p className="fundlog__meta">
          <span className={`acct acct--${row.account_name}`}>{i18n._(accountNameLabel(row.account_name))}</span>
          <time dateTime={row.created_at}>{formatDateTime(row.created_at_ms)}</time>
        </p>
        {/* The order and its project, in the reader's language, tell two lines of one amount apart. */}
        {orderNo && (
          <p className="fundlog__ref" data-testid="fundlog-ref">
            {row.project_name && <span>{pick(row, 'project_name')}</span>}
            <span>{t`Order ${orderNo}`}</span>
          </p>
        )}
        {Object.hasOwn(RECEIPT_OF_ENTRY, row.kind) && (
          <Link to="/pages/profile/receipts" search={{ entry_id: row.entry_id }} className="fundlog__receipt" data-testid="fundlog-receipt">
            <Trans>Receipt</Trans>
          </Link>
        )}
        {/* The memo is the server's English text: shown to English readers only. */}
        {english && row.memo && <p className="fundlog__memo">{row.memo}</p>}
      </div>
      <div className="fundlog__figures">
        <p className={`fundlog__amount fundlog__amount--${direction}`}>
          <Amount value={row.amount} unit={row.unit} signed={direction !== 'held'} testId="fundlog-amount" />
        </p>
        {direction === 'held' && (
          <p className="fundlog__held">
            <Trans>Set aside</Trans>
          </p>
        )}
        {/* The balance after the line is the one of the bucket it moved (the chip beside the kind), named so a
            set-aside line is not read as the available balance. */}
        <p className="fundlog__balance" data-testid="fundlog-balance">
          {i18n._(balance.id, { amount: formatAmount(row.balance_after, row.unit) }, balance)}
        </p>
      </div>
    </li>
  );
}
