import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { RECEIPT_OF_ENTRY } from '../../../shared/schemas/receipt';
import { InfiniteList } from '../../components/infinite-list';
import { formatAmount, formatDateTime, pick } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useFundLogs, type StoredFundLog } from './api';
import { fundLogDirection } from './amount';
import { Amount } from '../../components/amount';
import { FUND_LOG_KINDS, accountNameLabel, balanceAfterLabel, fundLogKindChip, heldInto, kindLabel } from './labels';
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
              {pairHeld(list.logs).map(({ row, held }) => (
                <FundLogItem key={row.id} row={row} held={held} />
              ))}
            </ul>
          </InfiniteList>
        )}
      </section>
    </>
  );
}

/** A fund log line with, for money moved into a held balance (a booking fee, a withdrawal, a freeze), the
 *  held side of the same ledger entry: one row says the money left the available balance and where it is
 *  held, instead of two amounts that read as two charges. A held line whose partner is on another page
 *  stays a row of its own. */
interface FundLogLine {
  row: StoredFundLog;
  held?: StoredFundLog;
}

function pairHeld(rows: StoredFundLog[]): FundLogLine[] {
  const out: FundLogLine[] = [];
  const taken = new Set<number>();
  const partnerOf = (i: number) =>
    [rows[i - 1], rows[i + 1]].find((r) => r && !taken.has(r.id) && r.entry_id === rows[i]!.entry_id && r.kind === rows[i]!.kind && r.amount === -rows[i]!.amount);
  rows.forEach((row, i) => {
    if (taken.has(row.id) || fundLogDirection(row) !== 'held') return;
    const partner = partnerOf(i);
    if (partner) taken.add(partner.id).add(row.id);
  });
  rows.forEach((row, i) => {
    if (fundLogDirection(row) === 'held' && taken.has(row.id)) return;
    const held = taken.has(row.id) ? [rows[i - 1], rows[i + 1]].find((r) => r && r.entry_id === row.entry_id && fundLogDirection(r) === 'held') : undefined;
    out.push(held ? { row, held } : { row });
  });
  return out;
}

function FundLogItem({ row, held }: FundLogLine) {
  const { t, i18n } = useLingui();
  const orderNo = row.order_no;
  const direction = fundLogDirection(row);
  const english = currentLocale() === 'en';
  const balance = balanceAfterLabel(row.account_name);
  const heldBalance = held && balanceAfterLabel(held.account_name);
  return (
    <li className="fundlog" data-testid="fundlog-row" data-kind={row.kind} data-held={held ? held.account_name : undefined}>
      <div className="fundlog__main">
        <p className="fundlog__kind">{i18n._(kindLabel(row.kind))}</p>
        <p className="fundlog__meta">
          <span className={`acct acct--${row.account_name}`}>{i18n._(accountNameLabel(row.account_name))}</span>
          <time dateTime={row.created_at}>{formatDateTime(row.created_at_ms)}</time>
        </p>
        {/* The order and its project, in the reader's language, tell two lines of one amount apart. */}
        {(orderNo || row.project_name) && (
          <p className="fundlog__ref" data-testid="fundlog-ref">
            {row.project_name && <span>{pick(row, 'project_name')}</span>}
            {orderNo && <span className="fundlog__order">{t`Order ${orderNo}`}</span>}
          </p>
        )}
        {Object.hasOwn(RECEIPT_OF_ENTRY, row.kind) && (
          <Link to="/pages/profile/receipts" search={{ entry_id: row.entry_id }} className="fundlog__receipt tap-link" data-testid="fundlog-receipt">
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
        {held && (
          <p className="fundlog__held" data-testid="fundlog-held">
            {i18n._(heldInto(held.account_name))}
          </p>
        )}
        {/* The balance after the line is the one of the bucket it moved (the chip beside the kind), named so a
            set-aside line is not read as the available balance. */}
        <p className="fundlog__balance" data-testid="fundlog-balance">
          {i18n._(balance.id, { amount: formatAmount(row.balance_after, row.unit) }, balance)}
        </p>
        {held && heldBalance && (
          <p className="fundlog__balance">{i18n._(heldBalance.id, { amount: formatAmount(held.balance_after, held.unit) }, heldBalance)}</p>
        )}
      </div>
    </li>
  );
}
