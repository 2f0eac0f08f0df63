/**
 * Inline content: texts, links (a ContentRef resolved through the context; broken ones stay
 * text), mentions, emoji, inline maths and images, buttons. Unknown inlines show their text.
 */
import { childrenOf, dataOf, isRecord, typeOf } from '../../../lib/markdown/nodes.js';
import { emojiText } from '../../../lib/markdown/to-inlines.js';
import { classes, classToken, element, escapeHtml } from '../html.js';
import { textNodeHtml } from './marks.js';
import { mathHtml } from './math.js';
import { inlineImageHtml } from './image-tags.js';
import { refId, refLabel, refUrl } from './refs.js';
import { MAX_DEPTH, type RenderState } from './state.js';
import { textOf } from './text-of.js';

export type InlineOptions = { inLink?: boolean; preformatted?: boolean };

export function renderInlines(nodes: unknown[], state: RenderState, depth: number, options: InlineOptions = {}): string {
  if (depth > MAX_DEPTH) return escapeHtml(textOf(nodes));
  let html = '';
  for (const node of nodes) {
    if (!isRecord(node)) continue;
    if (node.object === 'text') html += textNodeHtml(node, options.preformatted);
    else if (node.object === 'inline') html += renderInline(node, state, depth + 1, options);
  }
  return html;
}

function renderInline(node: Record<string, unknown>, state: RenderState, depth: number, options: InlineOptions): string {
  const data = dataOf(node);
  const children = () => renderInlines(childrenOf(node), state, depth, options);
  switch (typeOf(node)) {
    case 'link': {
      // No link inside a link: the inner one is its content only.
      if (options.inLink) return children();
      const href = refUrl(data.ref, state.context);
      const inner = renderInlines(childrenOf(node), state, depth, { ...options, inLink: true });
      return href === undefined ? element('span', { class: 'link-broken' }, inner) : element('a', { href }, inner);
    }
    case 'mention': {
      const label = refLabel(data.ref, state.context) || textOf(childrenOf(node)) || refId(data.ref);
      const href = options.inLink ? undefined : refUrl(data.ref, state.context);
      return href === undefined ? element('span', { class: 'mention' }, escapeHtml(label)) : element('a', { class: 'mention', href }, escapeHtml(label));
    }
    case 'emoji':
      return element('span', { class: 'emoji' }, escapeHtml(emojiText(data.code)));
    case 'inline-math':
      state.math = true;
      return mathHtml(data.formula, false);
    case 'inline-image':
      return inlineImageHtml(data, state.context);
    case 'button': {
      const label = escapeHtml(typeof data.label === 'string' ? data.label : '');
      const href = options.inLink ? undefined : refUrl(data.ref, state.context);
      const cls = classes('button', `button-${classToken(data.kind) ?? 'primary'}`);
      return href === undefined ? element('span', { class: cls }, label) : element('a', { class: cls, href }, label);
    }
    case 'annotation': {
      const body = Array.isArray(node.fragments) ? textOf(node.fragments) : '';
      const note = body ? ` ${element('small', { class: 'annotation-body' }, `(${escapeHtml(body)})`)}` : '';
      return element('span', { class: 'annotation' }, children()) + note;
    }
    default:
      return children();
  }
}
