/**
 * Link cards: embeds (an external URL; quire loads no third-party frames or scripts, so an embed
 * is a link to what it embeds) and content-refs (a card to a page, file, space or URL).
 */
import { dataOf } from '../../../lib/markdown/nodes.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { element, escapeHtml, safeUrl } from '../html.js';
import { refId, refLabel, refUrl } from './refs.js';
import type { RenderState } from './state.js';

const card = (href: string, title: string, detail: string, kind: string) =>
  element(
    'p',
    { class: `card-block ${kind}` },
    element('a', { class: 'card', href }, element('span', { class: 'card-title' }, escapeHtml(title)) + (detail ? element('span', { class: 'card-detail' }, escapeHtml(detail)) : '')),
  );

const brokenCard = (label: string, kind: string) => element('p', { class: `card-block ${kind} card-broken` }, element('span', { class: 'card-title' }, escapeHtml(label)));

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

export function renderEmbed(block: BlockNode): string {
  const raw = dataOf(block).url;
  const href = safeUrl(raw);
  if (href === undefined) return brokenCard(typeof raw === 'string' ? raw : '', 'embed');
  return card(href, hostOf(href) || href, href, 'embed');
}

export function renderContentRef(block: BlockNode, state: RenderState): string {
  const ref = dataOf(block).ref;
  const href = refUrl(ref, state.context);
  const label = refLabel(ref, state.context) || (href ?? refId(ref));
  if (href === undefined) return brokenCard(label, 'content-ref');
  // External targets show their host; pages, files and spaces their title only.
  const external = (ref as { kind?: unknown } | undefined)?.kind === 'url' ? hostOf(href) : '';
  return card(href, label, external, 'content-ref');
}
