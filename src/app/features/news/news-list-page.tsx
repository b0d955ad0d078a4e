import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../lib/db';
import { refreshNews } from '../../lib/sync';
import { useOnline } from '../../lib/online';
import { formatDate, pick } from '../../lib/format';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { InfiniteList } from '../../components/infinite-list';
import { PAGE_SIZE } from '../../../shared/constants';
import './news.css';

/**
 * News rows from Dexie, newest first; API pages are fetched into Dexie as the end of the list comes near, so
 * what was read before stays readable offline.
 */
function useNewsList() {
  const online = useOnline();
  const [limit, setLimit] = useState(PAGE_SIZE);
  const [server, setServer] = useState<{ pages: number; total: number | null; loading: boolean }>({ pages: 0, total: null, loading: false });
  const busy = useRef(false);
  const rows = useLiveQuery(() => db.news.orderBy('published_at_ms').reverse().toArray(), []);

  const fetchPage = useCallback(async (page: number) => {
    if (busy.current) return;
    busy.current = true;
    setServer((s) => ({ ...s, loading: true }));
    const res = await refreshNews(page, undefined, PAGE_SIZE);
    busy.current = false;
    setServer((s) => (res ? { loading: false, pages: Math.max(s.pages, page), total: res.total } : { ...s, loading: false }));
  }, []);

  useEffect(() => {
    if (online) void fetchPage(1);
  }, [fetchPage, online]);

  const serverHasMore = server.total !== null && server.pages * PAGE_SIZE < server.total;
  const loadMore = () => {
    setLimit((l) => l + PAGE_SIZE);
    if (online && serverHasMore) void fetchPage(server.pages + 1);
  };
  return {
    news: rows?.slice(0, limit),
    hasMore: (rows !== undefined && rows.length > limit) || (online && serverHasMore),
    loading: server.loading && (rows === undefined || rows.length <= limit),
    loadMore,
    online,
  };
}

export function NewsListPage() {
  const { t } = useLingui();
  const list = useNewsList();
  return (
    <div className="page">
      <NavBar title={t`News`} />
      <OfflineBar />
      <section className="section" aria-labelledby="news-list-title">
        <h2 id="news-list-title" className="sr-only">
          <Trans>Latest news</Trans>
        </h2>
        {list.news === undefined ? null : (
          <InfiniteList
            hasMore={list.hasMore}
            loading={list.loading}
            onLoadMore={list.loadMore}
            isEmpty={list.news.length === 0}
            empty={
              <p className="empty">
                {list.online ? <Trans>No news yet.</Trans> : <Trans>No saved news on this device. Connect to the internet to load it.</Trans>}
              </p>
            }
          >
            <ul className="news-list">
              {list.news.map((n) => (
                <li key={n.id}>
                  <Link to="/pages/news/info" search={{ id: n.id }} className="news-item card" data-testid="news-item">
                    <img src={n.image || '/img/news/offline.svg'} alt="" width={112} height={63} loading="lazy" decoding="async" className="news-item__img" />
                    <div className="news-item__body">
                      <h3 className="news-item__title">{pick(n, 'title')}</h3>
                      <p className="news-item__summary">{pick(n, 'summary')}</p>
                      <time className="news-item__date" dateTime={n.published_at}>
                        {formatDate(n.published_at_ms)}
                      </time>
                    </div>
                  </Link>
                </li>
              ))}
            </ul>
          </InfiniteList>
        )}
      </section>
    </div>
  );
}
