import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../lib/db';
import { refreshPage } from '../../lib/sync';
import { useOnline } from '../../lib/online';
import { formatDate, pick } from '../../lib/format';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { LoadingState } from '../../components/empty-state';
import type { ContentPage as Page } from '../../../shared/schemas/content';
import './content.css';

const titles: Record<Page['slug'], MessageDescriptor> = {
  about: msg`About us`,
  protocol: msg`User agreement`,
  privacy: msg`Privacy policy`,
};

/** About, protocol and privacy: a page kept in the database, cached in Dexie as 'page:<slug>'. */
export function ContentPage({ slug }: { slug: Page['slug'] }) {
  const { i18n } = useLingui();
  const online = useOnline();
  const entry = useLiveQuery(() => db.content.get(`page:${slug}`).then((e) => e ?? null), [slug]);
  const page = entry ? (entry.value as Page) : entry;
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (online) void refreshPage(slug).then((ok) => setFailed(!ok));
  }, [slug, online]);

  let body;
  if (page) {
    const updated = formatDate(page.updated_at);
    body = (
      <article className="content-page card" aria-labelledby="content-title">
        <h2 id="content-title" className="content-page__title">
          {pick(page, 'title')}
        </h2>
        <p className="content-page__updated">
          <Trans>Last updated {updated}</Trans>
        </p>
        <div className="content-page__body">
          {pick(page, 'body')
            .split(/\n\s*\n/)
            .map((p) => p.trim())
            .filter(Boolean)
            .map((p, i) => (
              <p key={i}>
                <WithMailLinks text={p} />
              </p>
            ))}
        </div>
      </article>
    );
  } else if (page === undefined || (online && !failed)) {
    body = <LoadingState />;
  } else {
    body = (
      <p className="empty">
        {online ? <Trans>This page could not be loaded. Please try again later.</Trans> : <Trans>This page is not saved on this device. Connect to the internet to read it.</Trans>}
      </p>
    );
  }

  return (
    <div className="page">
      <NavBar title={i18n._(titles[slug])} />
      <OfflineBar />
      <div className="section">{body}</div>
    </div>
  );
}

// An address in a page's text (support, the data protection officer) is a mailto: link a phone opens.
const MAIL = /([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/;

function WithMailLinks({ text }: { text: string }) {
  // split() with a capture group puts each address at an odd index.
  return (
    <>
      {text.split(MAIL).map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={`mailto:${part}`} className="content-page__mail">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
