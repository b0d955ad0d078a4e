import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { TabBar } from '../../components/tab-bar';
import { OfflineBar } from '../../components/offline-bar';
import { InfiniteList } from '../../components/infinite-list';
import { ProjectCard } from '../../components/project-card';
import { useProjectList } from './use-project-list';
import { useSearchText } from './use-search-text';
import { ProjectFilters } from './project-filters';
import type { ProjectSearch } from './project-search';
import './projects.css';

export function ProjectListPage({ search, onSearch }: { search: ProjectSearch; onSearch: (next: ProjectSearch) => void }) {
  const { t } = useLingui();
  const list = useProjectList(search);
  const [text, setText] = useSearchText(search, onSearch);
  const filtered = Boolean(search.status || search.type || search.standard || search.q);

  return (
    <div className="page page--tabbed">
      <NavBar title={t`Projects`} back={false} />
      <OfflineBar />
      <ProjectFilters search={search} onSearch={onSearch} text={text} onText={setText} />
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
              <NoProjects
                offline={!list.online && !list.answered}
                filtered={filtered}
                onClear={() => {
                  setText('');
                  onSearch({});
                }}
              />
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

/** An empty list: nothing saved offline, nothing matching the filters (with a way to clear them), or no projects yet. */
function NoProjects({ offline, filtered, onClear }: { offline: boolean; filtered: boolean; onClear: () => void }) {
  return (
    <div className="empty">
      <p>
        {offline ? (
          <Trans>No saved projects match. Connect to the internet to see more.</Trans>
        ) : filtered ? (
          <Trans>No projects match these filters.</Trans>
        ) : (
          <Trans>No projects to show yet.</Trans>
        )}
      </p>
      {filtered && (
        <button type="button" className="btn btn--ghost" onClick={onClear}>
          <Trans>Clear filters</Trans>
        </button>
      )}
    </div>
  );
}
