import { Trans, useLingui } from '@lingui/react/macro';
import { InfiniteList } from '../../components/infinite-list';
import { LoadingState } from '../../components/empty-state';
import { MemberPage } from '../../components/member-page';
import { clearKeptError, keepNotice } from '../../components/page-notice';
import { formatDateTime } from '../../lib/format';
import { localeToWire, type Locale } from '../../../shared/api';
import { noticeText } from '../../../shared/schemas/notice-text';
import type { NotificationItem } from '../../../shared/schemas/wallet';
import { useInbox, useMarkRead } from './api';
import './inbox.css';

// /pages/profile/notifications (docs/decisions/0008-inbox.md): every notice of the member, newest first,
// paged as the end of the list comes near; unread ones are marked (a dot, bold title, and "Unread" for screen
// readers) and a tap marks one read; "Mark all as read" marks the rest. Each notice reads in the reader's
// language (its Chinese text in Chinese). Read from Dexie, so it works offline; new notices arrive over the
// socket.

export function InboxPage() {
  const { t } = useLingui();
  return (
    <MemberPage title={t`Notifications`} prompt={<Trans>Log in to see your notifications.</Trans>} className="inbox-page">
      <InboxScreen />
    </MemberPage>
  );
}

function InboxScreen() {
  const { t, i18n } = useLingui();
  const inbox = useInbox();
  const markRead = useMarkRead();
  const lang = localeToWire(i18n.locale as Locale);
  const mark = (target: number | 'all') => {
    clearKeptError();
    void markRead(target).then((msg) => {
      if (msg) keepNotice(msg, 'error');
    });
  };
  if (inbox.notices === undefined) return <LoadingState />;
  return (
    <section className="section inbox" aria-label={t`Notifications`}>
      <div className="inbox-head">
        <p className="inbox-head__count" aria-live="polite" data-testid="inbox-unread">
          {inbox.unread > 0 ? <Trans>{inbox.unread} unread</Trans> : <Trans>All read</Trans>}
        </p>
        {inbox.unread > 0 ? (
          <button type="button" className="btn btn--ghost inbox-head__all" disabled={!inbox.online} onClick={() => mark('all')} data-testid="inbox-mark-all">
            <Trans>Mark all as read</Trans>
          </button>
        ) : null}
      </div>
      <InfiniteList
        hasMore={inbox.hasMore}
        loading={inbox.loading}
        onLoadMore={inbox.loadMore}
        isEmpty={inbox.notices.length === 0}
        empty={
          <p className="empty" data-testid="inbox-empty">
            {inbox.online ? <Trans>No notifications yet.</Trans> : <Trans>No saved notifications on this device. Connect to the internet to load them.</Trans>}
          </p>
        }
      >
        <ul className="inbox-list card" data-testid="inbox-list">
          {inbox.notices.map((n) => (
            <NoticeRow key={n.id} notice={n} lang={lang} onRead={() => mark(n.id)} canMark={inbox.online} />
          ))}
        </ul>
      </InfiniteList>
    </section>
  );
}

function NoticeRow({ notice, lang, onRead, canMark }: { notice: NotificationItem; lang: 'en' | 'cn'; onRead: () => void; canMark: boolean }) {
  const { t } = useLingui();
  const text = noticeText(notice, lang);
  const content = (
    <>
      <span className="inbox-item__dot" aria-hidden="true" />
      <span className="inbox-item__main">
        <span className="inbox-item__title">
          {notice.read ? null : <span className="sr-only">{t`Unread:`} </span>}
          {text.title}
        </span>
        <span className="inbox-item__body">{text.body}</span>
        <time className="inbox-item__time" dateTime={new Date(notice.created_at_ms).toISOString()}>
          {formatDateTime(notice.created_at_ms)}
        </time>
      </span>
    </>
  );
  const className = `inbox-item${notice.read ? '' : ' inbox-item--unread'}`;
  return (
    <li data-testid="inbox-item" data-read={notice.read ? 'true' : 'false'}>
      {notice.read || !canMark ? (
        <div className={className}>{content}</div>
      ) : (
        <button type="button" className={className} onClick={onRead} aria-description={t`Tap to mark as read`}>
          {content}
        </button>
      )}
    </li>
  );
}
