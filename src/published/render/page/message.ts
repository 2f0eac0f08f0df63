/** Error pages (401, 403, 404) in the site's look; never indexed. */
import { element, escapeHtml } from '../html.js';
import { stringsFor, type UiStrings } from '../strings.js';
import { linkHtml } from './links.js';
import { documentTitle } from './page.js';
import { renderShell } from './shell.js';
import type { MessagePageView } from './view.js';

export type MessageStatus = 401 | 403 | 404;

const titleOf = (status: MessageStatus, strings: UiStrings) => (status === 401 ? strings.unauthorized : status === 403 ? strings.forbidden : strings.notFound);

export function renderMessagePage(view: MessagePageView, status: MessageStatus, message: string): string {
  const heading = titleOf(status, stringsFor(view.lang));
  return renderShell({
    ...view,
    noindex: true,
    title: documentTitle(heading, view.site.title),
    main: (strings) =>
      element(
        'section',
        { class: 'message' },
        element('p', { class: 'status' }, String(status)) +
          element('h1', {}, escapeHtml(heading)) +
          (message ? element('p', {}, escapeHtml(message)) : '') +
          (view.site.href ? element('p', {}, linkHtml(view.site.href, strings.home)) : ''),
      ),
  });
}
