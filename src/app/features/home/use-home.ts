import { useEffect, useState } from 'react';
import { refreshBanners, refreshNews, refreshProjects, type ProjectQuery } from '../../lib/sync';
import { useStoreQuery } from '../../lib/store';
import type { Paged } from '../../../shared/api';
import type { Banner, NewsItem, Project } from '../../../shared/schemas/content';
import { homeBanners, homeNews, homeProjects, newsWithPage, projectsWithPage, takeEarlyHome, type HomeDevice } from './home-data';

// Home's data. The store's live queries once it has loaded; before that (a start on home: lib/store.ts) the
// device's rows read early and the network's answers as the store will hold them, so the screen draws the
// same with or without the store and nothing changes when it takes over.

const PROJECTS: ProjectQuery = { page: 1, page_size: 20 };

interface Answers {
  banners?: Paged<Banner>;
  projects?: Paged<Project>;
  news?: Paged<NewsItem>;
}

export interface HomeData {
  banners: Banner[] | undefined;
  projects: Project[] | undefined;
  news: NewsItem[] | undefined;
  /** The refreshes have not all answered yet. */
  loading: boolean;
}

export function useHome(): HomeData {
  const [device] = useState<HomeDevice | undefined>(takeEarlyHome);
  const [answers, setAnswers] = useState<Answers>({});
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let open = 3;
    /** A refresh's options that keep its answer for the screen, and what marks it done: once its answer is
     *  in (its write may wait for the store) or it failed. */
    const keep = <K extends keyof Answers>(key: K, deviceHasNone: boolean) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        open -= 1;
        if (open === 0) setLoading(false);
      };
      const onAnswer = (value: NonNullable<Answers[K]>, fromCache: boolean) => {
        // The worker's cached copy is never newer than the device's (lib/sync.ts): it counts only where
        // the device has nothing, as the store restores it.
        if (!fromCache || deviceHasNone) setAnswers((a) => ({ ...a, [key]: value }));
        finish();
      };
      return { onAnswer, finish };
    };
    const banners = keep('banners', !device?.banners?.length);
    const projects = keep('projects', !device?.anyProjects);
    const news = keep('news', !device?.anyNews);
    void refreshBanners(undefined, { onAnswer: banners.onAnswer }).finally(banners.finish);
    void refreshProjects(PROJECTS, undefined, { onAnswer: projects.onAnswer }).finally(projects.finish);
    void refreshNews(1, undefined, undefined, { onAnswer: news.onAnswer }).finally(news.finish);
  }, [device]);

  const banners = useStoreQuery(homeBanners, [], answers.banners?.list ?? device?.banners);
  const projects = useStoreQuery(homeProjects, [], answers.projects ? projectsWithPage(device?.projects, PROJECTS, answers.projects) : device?.projects);
  const news = useStoreQuery(homeNews, [], answers.news ? newsWithPage(device?.news, answers.news) : device?.news);
  return { banners, projects, news, loading };
}
