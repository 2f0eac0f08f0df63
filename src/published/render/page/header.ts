/**
 * The page top: skip link, announcement banner, and the `<header>` landmark with the logo or
 * title, header links (menus as `<details>`), the search form, the theme toggle (hidden until
 * the page script makes it work), and the section tabs.
 */
import { attrs, element, escapeHtml, safeUrl } from '../html.js';
import { PAGE_IDS } from '../ids.js';
import type { UiStrings } from '../strings.js';
import { linkHtml } from './links.js';
import type { HeaderLink, SiteView, SwitchItem } from './view.js';

export type HeaderOptions = {
  site: SiteView;
  strings: UiStrings;
  sections?: SwitchItem[];
  searchAction?: string;
  searchFields?: Record<string, string>;
  query?: string;
  /** Whether there is a page navigation for the small-screen "Menu" link to jump to. */
  hasNav: boolean;
};

const ANNOUNCEMENT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

function announcementHtml(site: SiteView, strings: UiStrings): string {
  const a = site.announcement;
  if (!a?.message) return '';
  const style = ANNOUNCEMENT_STYLES.has(a.style) ? a.style : 'info';
  const link = a.link ? ` ${linkHtml(a.link.href, a.link.title)}` : '';
  return element('div', { class: `announcement announcement-${style}`, role: 'region', 'aria-label': strings.announcement }, escapeHtml(a.message) + link);
}

/** The logo (one image per theme when they differ) with the site title as its text alternative, or the title. */
function brandHtml(site: SiteView): string {
  const light = safeUrl(site.logo?.light);
  const dark = safeUrl(site.logo?.dark);
  let inner: string;
  if (light && dark && light !== dark) {
    inner = `<img${attrs({ class: 'only-light', src: light, alt: site.title })}><img${attrs({ class: 'only-dark', src: dark, alt: site.title })}>`;
  } else if (light || dark) {
    inner = `<img${attrs({ src: light ?? dark, alt: site.title })}>`;
  } else {
    inner = element('span', {}, escapeHtml(site.title));
  }
  return linkHtml(site.href, site.title, { class: 'site-brand' }, inner);
}

function headerLinkHtml(link: HeaderLink): string {
  const children = link.children ?? [];
  if (!children.length) return element('li', {}, linkHtml(link.href, link.title));
  const entries = [...(link.href ? [{ title: link.title, href: link.href }] : []), ...children];
  const menu = element('ul', {}, entries.map((c) => element('li', {}, linkHtml(c.href, c.title))).join(''));
  return element('li', {}, element('details', { class: 'header-menu' }, element('summary', {}, escapeHtml(link.title)) + menu));
}

export function searchFormHtml(action: string | undefined, strings: UiStrings, query = '', fields: Record<string, string> = {}, id: string = PAGE_IDS.search): string {
  const url = safeUrl(action);
  if (url === undefined) return '';
  const hidden = Object.entries(fields)
    .filter(([name]) => name !== 'q')
    .map(([name, value]) => `<input${attrs({ type: 'hidden', name, value })}>`)
    .join('');
  return element(
    'form',
    { class: 'search-form', role: 'search', action: url, method: 'get' },
    element('label', { class: 'visually-hidden', for: id }, escapeHtml(strings.search)) +
      `<input${attrs({ type: 'search', id, name: 'q', value: query || undefined, placeholder: strings.searchPlaceholder, maxlength: 512, autocomplete: 'off' })}>` +
      hidden +
      element('button', { type: 'submit' }, escapeHtml(strings.search)),
  );
}

/** Section tabs: shown when there is more than one section to choose from. */
function sectionsHtml(sections: SwitchItem[] | undefined, strings: UiStrings): string {
  if (!sections || sections.length < 2) return '';
  const items = sections.map((s) => element('li', {}, linkHtml(s.href, s.title, { 'aria-current': s.current ? 'true' : undefined }))).join('');
  return element('nav', { class: 'section-tabs', 'aria-label': strings.sections }, element('ul', {}, items));
}

export function headerHtml(options: HeaderOptions): string {
  const { site, strings } = options;
  const links = site.headerLinks?.length ? element('nav', { class: 'header-links', 'aria-label': strings.siteLinks }, element('ul', {}, site.headerLinks.map(headerLinkHtml).join(''))) : '';
  const toggle = site.theme?.toggleable
    ? element(
        'button',
        { type: 'button', class: 'theme-toggle', 'aria-pressed': 'false', hidden: true },
        '<span aria-hidden="true">◐</span>' + element('span', { class: 'visually-hidden' }, escapeHtml(strings.toggleTheme)),
      )
    : '';
  // Without script the link jumps to the navigation; the page script turns it into a drawer's toggle.
  const menu = options.hasNav ? element('a', { class: 'menu-link', href: `#${PAGE_IDS.nav}`, 'data-close': strings.close }, escapeHtml(strings.menu)) : '';
  const inner = brandHtml(site) + links + searchFormHtml(options.searchAction, strings, options.query, options.searchFields) + toggle + menu;
  return (
    element('a', { class: 'skip-link', href: `#${PAGE_IDS.main}` }, escapeHtml(strings.skipToContent)) +
    announcementHtml(site, strings) +
    element('header', { class: 'site-header' }, element('div', { class: 'header-inner' }, inner) + sectionsHtml(options.sections, strings))
  );
}
