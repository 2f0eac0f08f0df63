/** A published page: the page's title, description and body in `<main>`, its outline beside it. */
import { element, escapeHtml } from '../html.js';
import { PAGE_IDS } from '../ids.js';
import { stringsFor, type UiStrings } from '../strings.js';
import { linkHtml } from './links.js';
import { renderShell } from './shell.js';
import type { OutlineEntry, PageView } from './view.js';

/** "Page title · Site title" (just one of them when they are the same or one is empty). */
export function documentTitle(...parts: (string | undefined)[]): string {
  const seen: string[] = [];
  for (const part of parts) {
    const p = part?.trim();
    if (p && !seen.includes(p)) seen.push(p);
  }
  return seen.join(' · ');
}

function outlineHtml(headings: OutlineEntry[] | undefined, strings: UiStrings): string {
  if (!headings?.length) return '';
  const items = headings
    .map((h) => element('li', { class: `outline-level-${Math.min(Math.max(Math.round(h.level) || 1, 1), 3)}` }, linkHtml(`#${h.id}`, h.title)))
    .join('');
  return element(
    'aside',
    { class: 'outline', 'aria-labelledby': PAGE_IDS.outline },
    element('h2', { id: PAGE_IDS.outline }, escapeHtml(strings.onThisPage)) + element('ul', {}, items),
  );
}

function paginationHtml(view: PageView, strings: UiStrings): string {
  const link = (rel: 'prev' | 'next', label: string, target: PageView['previous']) =>
    target
      ? linkHtml(target.href, target.title, { rel }, element('span', { class: 'pagination-label' }, escapeHtml(label)) + element('span', { class: 'pagination-title' }, escapeHtml(target.title)))
      : '';
  const inner = link('prev', strings.previous, view.previous) + link('next', strings.next, view.next);
  return inner ? element('nav', { class: 'pagination', 'aria-label': strings.pagination }, inner) : '';
}

export function renderPage(view: PageView): string {
  const { page } = view;
  return renderShell({
    ...view,
    title: documentTitle(page.title, view.site.title),
    description: page.description,
    math: page.math,
    aside: outlineHtml(page.headings, stringsFor(view.lang)),
    main: (strings) => {
      const header = element('header', { class: 'page-header' }, element('h1', {}, escapeHtml(page.title)) + (page.description ? element('p', { class: 'page-description' }, escapeHtml(page.description)) : ''));
      return element('article', { class: 'page' }, header + element('div', { class: 'page-body' }, page.bodyHtml) + paginationHtml(view, strings));
    },
  });
}
