import { useEffect, useId, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { TabBar } from '../../components/tab-bar';
import { OfflineBar } from '../../components/offline-bar';
import { InfiniteList } from '../../components/infinite-list';
import { PROJECT_STANDARDS, PROJECT_TYPES } from '../../../shared/content-values';
import { ProjectCard } from '../../components/project-card';
import { statusLabel, typeLabel } from '../../lib/project-labels';
import { useProjectList } from './use-project-list';
import { PROJECT_SORTS, type ProjectSearch, type ProjectSort, type ProjectStandard, type PublicStatus } from './project-search';
import './projects.css';

const SEARCH_DEBOUNCE_MS = 300;
const STATUS_TABS: (PublicStatus | undefined)[] = [undefined, 'presale', 'in_progress', 'closed'];

export function ProjectListPage({ search, onSearch }: { search: ProjectSearch; onSearch: (next: ProjectSearch) => void }) {
  const { t, i18n } = useLingui();
  const ids = { q: useId(), type: useId(), standard: useId(), sort: useId() };
  const list = useProjectList(search);

  // The search box is typed into locally and written to the URL after a pause.
  const [text, setText] = useState(search.q ?? '');
  const urlQ = search.q ?? '';
  useEffect(() => {
    // The URL changed from outside (back button, a link): follow it.
    setText((cur) => (cur.trim() === urlQ ? cur : urlQ));
  }, [urlQ]);
  // The other filters are read when the wait ends, so a tab tapped meanwhile is kept.
  const latest = useRef({ search, onSearch });
  latest.current = { search, onSearch };
  useEffect(() => {
    const next = text.trim();
    if (next === urlQ) return;
    const id = setTimeout(() => latest.current.onSearch({ ...latest.current.search, q: next || undefined }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [text, urlQ]);

  const filtered = Boolean(search.status || search.type || search.standard || search.q);
  const sortLabel: Record<ProjectSort, string> = {
    price_asc: t`Price: low to high`,
    price_desc: t`Price: high to low`,
    selling_soon: t`Selling time: earliest`,
    selling_latest: t`Selling time: latest`,
  };

  return (
    <div className="page page--tabbed">
      <NavBar title={t`Projects`} back={false} />
      <OfflineBar />
      <div className="project-filters">
        <div className="segmented project-tabs" role="group" aria-label={t`Project status`}>
          {STATUS_TABS.map((status) => (
            <button
              key={status ?? 'all'}
              type="button"
              aria-pressed={search.status === status}
              onClick={() => onSearch({ ...search, status })}
              data-testid={`status-${status ?? 'all'}`}
            >
              {status ? i18n._(statusLabel[status]) : t`All`}
            </button>
          ))}
        </div>
        <div className="project-filters__row">
          <div className="project-filters__q">
            <label htmlFor={ids.q} className="sr-only">
              <Trans>Search by name or location</Trans>
            </label>
            <svg className="project-filters__icon" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zm9 16-4-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            <input
              id={ids.q}
              className="input"
              type="search"
              enterKeyHint="search"
              maxLength={140}
              placeholder={t`Name or location`}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <label htmlFor={ids.type} className="sr-only">
            <Trans>Project type</Trans>
          </label>
          <select
            id={ids.type}
            className="input project-filters__type"
            value={search.type ?? ''}
            onChange={(e) => onSearch({ ...search, type: (e.target.value || undefined) as ProjectSearch['type'] })}
          >
            <option value="">{t`All types`}</option>
            {PROJECT_TYPES.map((type) => (
              <option key={type} value={type}>
                {i18n._(typeLabel[type])}
              </option>
            ))}
          </select>
        </div>
        <div className="project-filters__row">
          <label htmlFor={ids.standard} className="sr-only">
            <Trans>Standard</Trans>
          </label>
          <select
            id={ids.standard}
            className="input project-filters__select"
            data-testid="filter-standard"
            value={search.standard ?? ''}
            onChange={(e) => onSearch({ ...search, standard: (e.target.value || undefined) as ProjectStandard | undefined })}
          >
            <option value="">{t`All standards`}</option>
            {PROJECT_STANDARDS.map((std) => (
              <option key={std} value={std}>
                {std}
              </option>
            ))}
          </select>
          <label htmlFor={ids.sort} className="sr-only">
            <Trans>Sort by</Trans>
          </label>
          <select
            id={ids.sort}
            className="input project-filters__select"
            data-testid="filter-sort"
            value={search.sort ?? ''}
            onChange={(e) => onSearch({ ...search, sort: (e.target.value || undefined) as ProjectSort | undefined })}
          >
            <option value="">{t`Recommended order`}</option>
            {PROJECT_SORTS.map((s) => (
              <option key={s} value={s}>
                {sortLabel[s]}
              </option>
            ))}
          </select>
        </div>
      </div>

      <section className="section project-list" aria-labelledby="project-list-title">
        <h2 id="project-list-title" className="sr-only">
          <Trans>Project list</Trans>
        </h2>
        {list.projects === undefined ? null : (
          <InfiniteList
            hasMore={list.hasMore}
            loading={list.loading}
            onLoadMore={list.loadMore}
            isEmpty={list.projects.length === 0}
            empty={
              <div className="empty">
                <p>
                  {!list.online && !list.answered ? (
                    <Trans>No saved projects match. Connect to the internet to see more.</Trans>
                  ) : filtered ? (
                    <Trans>No projects match these filters.</Trans>
                  ) : (
                    <Trans>No projects to show yet.</Trans>
                  )}
                </p>
                {filtered && (
                  <button
                    type="button"
                    className="btn btn--ghost"
                    onClick={() => {
                      setText('');
                      onSearch({});
                    }}
                  >
                    <Trans>Clear filters</Trans>
                  </button>
                )}
              </div>
            }
          >
            {list.projects.map((p) => (
              <ProjectCard key={p.id} project={p} />
            ))}
          </InfiniteList>
        )}
      </section>
      <TabBar />
    </div>
  );
}
