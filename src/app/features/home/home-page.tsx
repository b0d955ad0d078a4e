import { useEffect } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../lib/db';
import { refreshBanners, refreshNews, refreshProjects } from '../../lib/sync';
import { NavBar } from '../../components/nav-bar';
import { TabBar } from '../../components/tab-bar';
import { OfflineBar } from '../../components/offline-bar';
import { Swiper } from '../../components/swiper';
import { ProjectCard } from '../projects/project-card';
import { formatDate, pick } from '../../lib/format';
import type { Banner } from '../../../shared/schemas/content';
import './home.css';

export function HomePage() {
  const { t } = useLingui();
  useEffect(() => {
    void refreshBanners();
    void refreshProjects({ page: 1, page_size: 20 });
    void refreshNews(1);
  }, []);
  const banners = useLiveQuery(() => db.content.get('banners'), [])?.value as Banner[] | undefined;
  const projects = useLiveQuery(() => db.projects.where('status').anyOf('in_progress', 'presale').reverse().sortBy('selling_time_ms'), []);
  const news = useLiveQuery(() => db.news.orderBy('published_at_ms').reverse().limit(3).toArray(), []);

  return (
    <div className="page page--tabbed">
      <NavBar title="Canopy" back={false} brand right={<Link to="/pages/index/faq" className="navbar__btn" aria-label={t`FAQ`} style={{ color: '#fff' }}>?</Link>} />
      <OfflineBar />
      <div className="section">
        {banners && banners.length > 0 ? (
          <Swiper
            label={t`Highlights`}
            slides={banners.map((b) => ({
              key: b.id,
              node: (
                <a href={b.link || '/pages/project/index'} className="swiper__slide" style={{ display: 'block' }}>
                  <img src={b.image} alt="" width={750} height={320} fetchPriority="high" />
                  <span className="swiper__caption">{pick(b, 'title')}</span>
                </a>
              ),
            }))}
          />
        ) : (
          <div className="swiper" aria-hidden="true" />
        )}
        <div className="home-actions">
          <Link to="/pages/project/index" className="home-action card">
            <Trans>Offset by the ton</Trans>
          </Link>
          <Link to="/pages/news/index" className="home-action card">
            <Trans>News</Trans>
          </Link>
          <Link to="/pages/about/index" className="home-action card">
            <Trans>About us</Trans>
          </Link>
        </div>
      </div>

      <section className="section" aria-labelledby="latest-projects">
        <h2 className="section-title" id="latest-projects">
          <Trans>Latest projects</Trans>
          <Link to="/pages/project/index">
            <Trans>All projects</Trans>
          </Link>
        </h2>
        {projects === undefined ? null : projects.length === 0 ? (
          <p className="empty">
            <Trans>No projects to show yet. Connect to the internet to load them.</Trans>
          </p>
        ) : (
          projects.slice(0, 4).map((p) => <ProjectCard key={p.id} project={p} />)
        )}
      </section>

      <section className="section" aria-labelledby="latest-news">
        <h2 className="section-title" id="latest-news">
          <Trans>News</Trans>
          <Link to="/pages/news/index">
            <Trans>More</Trans>
          </Link>
        </h2>
        {news?.map((n) => (
          <Link key={n.id} to="/pages/news/info" search={{ id: n.id }} className="news-row card" data-testid="news-row">
            <span className="news-row__title">{pick(n, 'title')}</span>
            <span className="muted news-row__date">{formatDate(n.published_at_ms)}</span>
          </Link>
        ))}
      </section>
      <TabBar />
    </div>
  );
}
