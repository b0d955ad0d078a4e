import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../lib/db';
import { refreshNewsItem } from '../../lib/sync';
import { useOnline } from '../../lib/online';
import { formatDate, pick } from '../../lib/format';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { LoadingState } from '../../components/empty-state';
import './news.css';

export function NewsDetailPage({ id }: { id: number }) {
  const { t } = useLingui();
  const online = useOnline();
  // null = not cached; undefined = the cache has not answered yet.
  const item = useLiveQuery(() => (id ? db.news.get(id).then((n) => n ?? null) : null), [id]);
  const [failed, setFailed] = useState<number | null>(null);
  useEffect(() => {
    if (!id || !online) return;
    void refreshNewsItem(id).then((n) => setFailed(n ? null : id));
  }, [id, online]);

  let body;
  if (item) {
    const title = pick(item, 'title');
    const text = pick(item, 'body');
    body = (
      <article className="news-article" aria-labelledby="news-title">
        <h2 id="news-title" className="news-article__title">
          {title}
        </h2>
        <time className="news-article__date" dateTime={item.published_at}>
          {formatDate(item.published_at_ms)}
        </time>
        {item.image && <img src={item.image} alt="" width={320} height={180} className="news-article__img" fetchPriority="high" />}
        <div className="news-article__body">
          {text
            .split(/\n\s*\n/)
            .map((p) => p.trim())
            .filter(Boolean)
            .map((p, i) => (
              <p key={i}>{p}</p>
            ))}
        </div>
      </article>
    );
  } else if (item === undefined || (id && online && failed !== id)) {
    body = <LoadingState />;
  } else {
    body = (
      <div className="empty">
        <p>{online || !id ? <Trans>This article is not available.</Trans> : <Trans>This article is not saved on this device. Connect to the internet to read it.</Trans>}</p>
        <Link to="/pages/news/index" className="btn btn--ghost">
          <Trans>All news</Trans>
        </Link>
      </div>
    );
  }

  return (
    <div className="page">
      <NavBar title={t`News`} />
      <OfflineBar />
      {body}
    </div>
  );
}
