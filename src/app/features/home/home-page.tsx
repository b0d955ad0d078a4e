import { useEffect, useState } from 'react';
import { HOME_BANNERS_KEY, HOME_NEWS_KEY, homeBanners, homeNews, homeProjects, isHomeProject, takeEarlyHomeProjects } from './home-data';
import { takeEarly } from '../../lib/early-read';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { refreshBanners, refreshNews, refreshProjects } from '../../lib/sync';
import { NavBar } from '../../components/nav-bar';
import { LanguageToggle } from '../../components/language-toggle';
import { TabBar } from '../../components/tab-bar';
import { OfflineBar } from '../../components/offline-bar';
import { Swiper } from '../../components/swiper';
import { ProjectCard } from '../../components/project-card';
import { formatDate, pick } from '../../lib/format';
import type { Banner, NewsItem } from '../../../shared/schemas/content';
import './home.css';

// Shown until the server's banners are cached, so the first paint has its hero at once (the same image
// the static boot shell in index.html shows, which keeps the largest paint early and the layout still).
const DEFAULT_BANNER: Banner = {
  id: 0,
  title: 'Explore verified carbon projects',
  title_cn: '探索经过核证的碳减排项目',
  image: '/img/banners/1.svg',
  link: '/pages/project/index',
};

export function HomePage() {
  const { t } = useLingui();
  // What the server's first answers hold (null until they are in). The live queries show the rows a moment
  // after they are stored: until then an answer with rows keeps the placeholders, rather than drawing the
  // empty state for one frame and moving everything below it twice.
  const [answered, setAnswered] = useState<{ projects: boolean; news: boolean } | null>(null);
  useEffect(() => {
    const projects = refreshProjects({ page: 1, page_size: 20 }).then((res) => res?.list.some(isHomeProject) ?? false, () => false);
    const news = refreshNews(1).then((res) => (res?.list.length ?? 0) > 0, () => false);
    void Promise.all([refreshBanners().catch(() => undefined), projects, news]).then(([, hasProjects, hasNews]) => setAnswered({ projects: hasProjects, news: hasNews }));
  }, []);
  // Read ahead by a start on home (home-data.ts): the first render has the banners, the cards and the news.
  const [early] = useState(() => ({ projects: takeEarlyHomeProjects(), banners: takeEarly<Banner[]>(HOME_BANNERS_KEY), news: takeEarly<NewsItem[]>(HOME_NEWS_KEY) }));
  const cachedBanners = useLiveQuery(homeBanners, [], early.banners);
  const banners = cachedBanners && cachedBanners.length > 0 ? cachedBanners : [DEFAULT_BANNER];
  const projects = useLiveQuery(homeProjects, [], early.projects);
  const news = useLiveQuery(homeNews, [], early.news);
  // Placeholders of the final size while the first copy loads, so nothing below them jumps.
  const projectsPending = projects === undefined || (projects.length === 0 && (answered?.projects ?? true));
  const newsPending = news === undefined || (news.length === 0 && (answered?.news ?? true));

  return (
    <div className="page page--tabbed">
      <NavBar title="Canopy" back={false} brand left={<LanguageToggle />} right={<Link to="/pages/index/faq" className="navbar__btn" aria-label={t`FAQ`} style={{ color: '#fff' }}>?</Link>} />
      <OfflineBar />
      <div className="section">
        <Swiper
          label={t`Highlights`}
          slides={banners.map((b, i) => ({
            key: b.id,
            node: (
              <a href={b.link || '/pages/project/index'} className="swiper__slide" style={{ display: 'block' }}>
                <img src={b.image} alt="" width={750} height={320} fetchPriority={i === 0 ? 'high' : 'low'} loading={i === 0 ? 'eager' : 'lazy'} />
                <span className="swiper__caption">{pick(b, 'title')}</span>
              </a>
            ),
          }))}
        />
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
        {projectsPending ? (
          <div aria-hidden="true">
            {[0, 1, 2, 3].map((i) => (
              <div key={i} className="project-card card skeleton" />
            ))}
          </div>
        ) : projects.length === 0 ? (
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
            <Trans>All news</Trans>
          </Link>
        </h2>
        {newsPending
          ? [0, 1, 2].map((i) => <div key={i} className="news-row card skeleton" aria-hidden="true" />)
          : news.map((n) => (
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
