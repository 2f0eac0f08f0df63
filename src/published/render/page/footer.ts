/** The `<footer>` landmark: link groups and copyright. */
import { element, escapeHtml } from '../html.js';
import type { UiStrings } from '../strings.js';
import { linkHtml } from './links.js';
import type { SiteView } from './view.js';

export function footerHtml(site: SiteView, strings: UiStrings): string {
  const groups = (site.footer?.groups ?? [])
    .filter((g) => g.links?.length)
    .map((g) =>
      element('div', { class: 'footer-group' }, element('h2', {}, escapeHtml(g.title)) + element('ul', {}, g.links.map((l) => element('li', {}, linkHtml(l.href, l.title))).join(''))),
    )
    .join('');
  const copyright = site.footer?.copyright ? element('p', { class: 'copyright' }, escapeHtml(site.footer.copyright)) : '';
  const inner = (groups ? element('nav', { class: 'footer-groups', 'aria-label': strings.footer }, groups) : '') + copyright;
  return element('footer', { class: 'site-footer' }, element('div', { class: 'footer-inner' }, inner));
}
