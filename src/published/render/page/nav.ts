/**
 * The sidebar: the variant switcher (site spaces of the current section) and the page tree. The
 * current page is `aria-current="page"`; pages with children fold them in a `<details>` placed
 * after the page's link (so the link stays a plain link), open on the way to the current page.
 */
import { emojiText } from '../../../lib/markdown/to-inlines.js';
import { element, escapeHtml } from '../html.js';
import { PAGE_IDS } from '../ids.js';
import type { UiStrings } from '../strings.js';
import { linkHtml } from './links.js';
import type { NavItem, SwitchItem } from './view.js';

/** Page trees are shallow; a deeper (malformed) tree is cut here to bound the recursion. */
const MAX_NAV_DEPTH = 12;

/** Items on the way to the current page (the current one included). */
function pathToCurrent(items: NavItem[]): Set<NavItem> {
  const path = new Set<NavItem>();
  const visit = (item: NavItem, depth: number): boolean => {
    if (depth > MAX_NAV_DEPTH) return false;
    const found = item.current === true || (item.children ?? []).some((c) => visit(c, depth + 1));
    if (found) path.add(item);
    return found;
  };
  // `some` stops at the first branch holding the current page.
  items.some((i) => visit(i, 0));
  return path;
}

/** A page's emoji: a code point sequence (`1f600`, `1f1eb-1f1f7`) or the emoji itself. */
const emojiOf = (emoji: string | undefined) => (emoji ? (/^[0-9a-f]+(-[0-9a-f]+)*$/i.test(emoji) ? emojiText(emoji) : emoji) : '');

function itemHtml(item: NavItem, open: Set<NavItem>, strings: UiStrings, depth: number): string {
  const emoji = emojiOf(item.emoji);
  const label = (emoji ? element('span', { class: 'emoji', 'aria-hidden': 'true' }, escapeHtml(emoji)) : '') + escapeHtml(item.title);
  const children = depth < MAX_NAV_DEPTH ? (item.children ?? []) : [];
  const list = () => element('ul', {}, children.map((c) => itemHtml(c, open, strings, depth + 1)).join(''));
  if (item.kind === 'group') {
    return element('li', { class: 'nav-group' }, element('span', { class: 'nav-group-title' }, label) + (children.length ? list() : ''));
  }
  const link =
    item.href === undefined
      ? element('span', { class: 'nav-text' }, label)
      : linkHtml(item.href, item.title, { class: item.kind === 'link' ? 'nav-external' : undefined, 'aria-current': item.current ? 'page' : undefined }, label);
  if (!children.length) return element('li', {}, link);
  const toggle = element('summary', {}, element('span', { class: 'visually-hidden' }, escapeHtml(`${strings.showSubpages}: ${item.title}`)) + '<span aria-hidden="true">▾</span>');
  return element('li', { class: 'has-children' }, link + element('details', { class: 'nav-children', open: open.has(item) }, toggle + list()));
}

function variantsHtml(variants: SwitchItem[] | undefined, strings: UiStrings): string {
  if (!variants || variants.length < 2) return '';
  const current = variants.find((v) => v.current) ?? variants[0];
  const items = variants.map((v) => element('li', {}, linkHtml(v.href, v.title, { 'aria-current': v.current ? 'true' : undefined }))).join('');
  const summary = element('summary', {}, element('span', { class: 'visually-hidden' }, `${escapeHtml(strings.variants)}: `) + escapeHtml(current.title));
  return element('details', { class: 'variants' }, summary + element('ul', {}, items));
}

export function sidebarHtml(nav: NavItem[] | undefined, variants: SwitchItem[] | undefined, strings: UiStrings): string {
  const items = nav ?? [];
  const switcher = variantsHtml(variants, strings);
  if (!items.length && !switcher) return '';
  const open = pathToCurrent(items);
  const tree = items.length
    ? element('nav', { id: PAGE_IDS.nav, 'aria-label': strings.pages }, element('ul', { class: 'nav-tree' }, items.map((i) => itemHtml(i, open, strings, 0)).join('')))
    : '';
  return element('aside', { class: 'sidebar', id: PAGE_IDS.sidebar, 'aria-label': strings.menu }, switcher + tree);
}
