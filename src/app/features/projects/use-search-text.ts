import { useEffect, useRef, useState } from 'react';
import type { ProjectSearch } from './project-search';

const SEARCH_DEBOUNCE_MS = 300;

/** The search box's text: typed into locally and written to the URL after a pause; a change of the URL
 *  from outside (back button, a link) is followed. */
export function useSearchText(search: ProjectSearch, onSearch: (next: ProjectSearch) => void) {
  const [text, setText] = useState(search.q ?? '');
  const urlQ = search.q ?? '';
  useEffect(() => {
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
  return [text, setText] as const;
}
