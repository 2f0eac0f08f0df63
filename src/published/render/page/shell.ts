/**
 * The HTML document every published page shares: head, header, sidebar, `<main>`, optional
 * outline, footer, page script. `<html>` carries `data-theme` when the theme is fixed (not
 * toggleable); otherwise the system preference or the visitor's stored choice decides.
 */
import { attrs, classes, element } from '../html.js';
import { PAGE_IDS } from '../ids.js';
import { stringsFor, type UiStrings } from '../strings.js';
import { footerHtml } from './footer.js';
import { headHtml } from './head.js';
import { headerHtml } from './header.js';
import { sidebarHtml } from './nav.js';
import { SITE_SCRIPT } from './script.js';
import type { MessagePageView } from './view.js';

export type ShellOptions = MessagePageView & {
  title: string;
  description?: string;
  noindex: boolean;
  canonicalUrl?: string;
  /** The HTML of `<main>`. */
  main: (strings: UiStrings) => string;
  /** An `<aside>` after main (the page outline), if any. */
  aside?: string;
  query?: string;
  /** The page shows maths: KaTeX's stylesheet is loaded. */
  math?: boolean;
};

/** `<html lang>` needs a language tag; a malformed one falls back to English. */
const langTag = (lang: string | undefined) => (typeof lang === 'string' && /^[a-zA-Z]{2,8}(-[a-zA-Z0-9]{1,8})*$/.test(lang) ? lang : 'en');

export function renderShell(options: ShellOptions): string {
  const { site } = options;
  const strings = stringsFor(options.lang);
  const sidebar = sidebarHtml(options.nav, options.variants, strings);
  const theme = site.theme?.toggleable ? undefined : site.theme?.default === 'dark' ? 'dark' : 'light';
  const head = headHtml({ title: options.title, description: options.description, noindex: options.noindex, canonicalUrl: options.canonicalUrl, stylesheetUrl: options.stylesheetUrl, mathStylesheetUrl: options.math ? options.mathStylesheetUrl : undefined, site });
  const header = headerHtml({
    site,
    strings,
    sections: options.sections,
    searchAction: options.searchAction,
    searchFields: options.searchFields,
    query: options.query,
    hasNav: sidebar.includes(`id="${PAGE_IDS.nav}"`),
  });
  const main = element('main', { id: PAGE_IDS.main, tabindex: -1 }, options.main(strings));
  const aside = options.aside ?? '';
  const layout = element('div', { class: classes('layout', !sidebar && 'no-sidebar', !aside && 'no-outline') }, sidebar + main + aside);
  const body = header + layout + footerHtml(site, strings) + `<script>${SITE_SCRIPT}</script>`;
  return `<!DOCTYPE html>\n<html${attrs({ lang: langTag(options.lang), 'data-theme': theme })}>\n<head>\n${head}\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}
