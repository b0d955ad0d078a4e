import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../lib/db';
import { refreshFaq } from '../../lib/sync';
import { useOnline } from '../../lib/online';
import { pick } from '../../lib/format';
import { NavBar } from '../../components/nav-bar';
import { OfflineBar } from '../../components/offline-bar';
import { LoadingState } from '../../components/empty-state';
import type { FaqItem } from '../../../shared/schemas/content';
import './content.css';

export function FaqPage() {
  const { t } = useLingui();
  const online = useOnline();
  const entry = useLiveQuery(() => db.content.get('faq').then((e) => e ?? null), []);
  const faqs = entry ? (entry.value as FaqItem[]) : entry;
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (online) void refreshFaq().then((ok) => setFailed(!ok));
  }, [online]);

  let body;
  if (faqs && faqs.length > 0) {
    body = (
      <div className="faq">
        {faqs.map((f) => (
          <details key={f.id} className="faq__item card" data-testid="faq-item">
            <summary className="faq__q">
              <span>{pick(f, 'question')}</span>
              <svg className="faq__chevron" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
                <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </summary>
            <div className="faq__a">
              {pick(f, 'answer')
                .split(/\n\s*\n/)
                .map((p) => p.trim())
                .filter(Boolean)
                .map((p, i) => (
                  <p key={i}>{p}</p>
                ))}
            </div>
          </details>
        ))}
      </div>
    );
  } else if (faqs === undefined || (faqs === null && online && !failed)) {
    body = <LoadingState />;
  } else {
    body = (
      <p className="empty">
        {faqs ? (
          <Trans>No questions yet.</Trans>
        ) : online ? (
          <Trans>The questions could not be loaded. Please try again later.</Trans>
        ) : (
          <Trans>The questions are not saved on this device. Connect to the internet to read them.</Trans>
        )}
      </p>
    );
  }

  return (
    <div className="page">
      <NavBar title={t`FAQ`} />
      <OfflineBar />
      <section className="section" aria-labelledby="faq-title">
        <h2 id="faq-title" className="faq__heading">
          <Trans>Frequently asked questions</Trans>
        </h2>
        {body}
        <p className="faq__more muted">
          <Trans>
            Still unsure? Read <Link className="tap-link" to="/pages/about/index">about us</Link>, the <Link className="tap-link" to="/pages/other/protocol">user agreement</Link> and the{' '}
            <Link className="tap-link" to="/pages/other/privacy">privacy policy</Link>.
          </Trans>
        </p>
      </section>
    </div>
  );
}
