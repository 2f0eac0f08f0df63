/** The search page: the query in a form, the number of results (announced), the results. */
import { element, escapeHtml } from '../html.js';
import { PAGE_IDS } from '../ids.js';
import { stringsFor } from '../strings.js';
import { searchFormHtml } from './header.js';
import { linkHtml } from './links.js';
import { documentTitle } from './page.js';
import { renderShell } from './shell.js';
import type { SearchPageView, SearchResult } from './view.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Escaped text with the query's words in `<mark>` (case-insensitive). */
export function highlight(text: string, query: string): string {
  const terms = [...new Set(query.toLowerCase().split(/\s+/).filter((t) => t.length >= 2))].slice(0, 10);
  if (!terms.length) return escapeHtml(text);
  // Longest first, so that "type" does not cut "typescript".
  const pattern = new RegExp(`(${terms.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})`, 'giu');
  return text
    .split(pattern)
    .map((part, i) => (i % 2 === 1 ? element('mark', {}, escapeHtml(part)) : escapeHtml(part)))
    .join('');
}

function resultHtml(result: SearchResult, query: string): string {
  const section = result.section ? element('span', { class: 'search-result-section' }, escapeHtml(result.section)) : '';
  const snippet = result.snippet ? element('p', { class: 'search-result-snippet' }, highlight(result.snippet, query)) : '';
  return element('li', {}, linkHtml(result.href, result.title, { class: 'search-result-title' }) + section + snippet);
}

export function renderSearchPage(view: SearchPageView): string {
  const query = (view.query ?? '').trim();
  const search = stringsFor(view.lang).search;
  return renderShell({
    ...view,
    // Result pages are not content: never indexed.
    noindex: true,
    title: documentTitle(query ? `${query} – ${search}` : search, view.site.title),
    query,
    main: (strings) => {
      const status = !query ? strings.enterQuery : view.results.length ? strings.results(view.results.length, query) : strings.noResults(query);
      const results = query && view.results.length ? element('ol', { class: 'search-results', id: PAGE_IDS.searchResults }, view.results.map((r) => resultHtml(r, query)).join('')) : '';
      return element(
        'section',
        { class: 'search-page' },
        element('h1', {}, escapeHtml(strings.search)) +
          searchFormHtml(view.searchAction, strings, query, view.searchFields, PAGE_IDS.searchQuery) +
          element('p', { role: 'status' }, escapeHtml(status)) +
          results,
      );
    },
  });
}
