import { useId } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { PROJECT_STANDARDS, PROJECT_TYPES } from '../../../shared/content-values';
import { statusLabel, typeLabel } from '../../lib/project-labels';
import { WrapSelect } from '../../components/forms/wrap-select';
import { PROJECT_SORTS, type ProjectSearch, type ProjectSort, type ProjectStandard, type PublicStatus } from './project-search';

// The project list's filters: status tabs, the search box, type, standard and sort. Each change is a new
// search (the URL's); the search box's text is the caller's, written to the URL after a pause.

const STATUS_TABS: (PublicStatus | undefined)[] = [undefined, 'presale', 'in_progress', 'closed'];

type Props = { search: ProjectSearch; onSearch: (next: ProjectSearch) => void };

export function ProjectFilters({ search, onSearch, text, onText }: Props & { text: string; onText: (text: string) => void }) {
  return (
    <div className="project-filters">
      <StatusTabs search={search} onSearch={onSearch} />
      <SearchRow search={search} onSearch={onSearch} text={text} onText={onText} />
      <StandardAndSort search={search} onSearch={onSearch} />
      <IccToggle search={search} onSearch={onSearch} />
    </div>
  );
}

function StatusTabs({ search, onSearch }: Props) {
  const { t, i18n } = useLingui();
  return (
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
  );
}

function SearchRow({ search, onSearch, text, onText }: Props & { text: string; onText: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const ids = { q: useId(), type: useId() };
  return (
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
          onChange={(e) => onText(e.target.value)}
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
  );
}

/** Only the projects whose credits count against Singapore carbon tax (docs/product.md#singapore-carbon-tax). */
function IccToggle({ search, onSearch }: Props) {
  return (
    <label className="project-filters__icc">
      <input
        type="checkbox"
        checked={search.icc === 'eligible'}
        onChange={(e) => onSearch({ ...search, icc: e.target.checked ? 'eligible' : undefined })}
        data-testid="filter-icc"
      />
      <Trans>Eligible for Singapore carbon tax only</Trans>
    </label>
  );
}

function StandardAndSort({ search, onSearch }: Props) {
  const { t } = useLingui();
  const ids = { standard: useId(), sort: useId() };
  const sortLabel: Record<ProjectSort, string> = {
    price_asc: t`Price: low to high`,
    price_desc: t`Price: high to low`,
    selling_soon: t`Sales open: soonest first`,
    selling_latest: t`Sales open: latest first`,
  };
  return (
    <div className="project-filters__row">
      <label htmlFor={ids.standard} className="sr-only">
        <Trans>Standard</Trans>
      </label>
      <WrapSelect
        shown={search.standard ?? t`All standards`}
        id={ids.standard}
        className="project-filters__select"
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
      </WrapSelect>
      <label htmlFor={ids.sort} className="sr-only">
        <Trans>Sort by</Trans>
      </label>
      <WrapSelect
        shown={search.sort ? sortLabel[search.sort] : t`Recommended order`}
        id={ids.sort}
        className="project-filters__select"
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
      </WrapSelect>
    </div>
  );
}
