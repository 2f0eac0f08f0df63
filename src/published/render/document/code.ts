/**
 * Code blocks: `<pre><code class="language-x">`, one `<span class="code-line">` per `code-line`
 * (line numbers are a CSS counter on those spans, so copying the code does not copy them), the
 * title as a `<figcaption>`. No highlighting here: the `language-x` class is what highlighters read.
 */
import { childrenOf, dataOf, inlineChildren, isRecord } from '../../../lib/markdown/nodes.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { classes, classToken, element, escapeHtml } from '../html.js';
import { renderInlines } from './inlines.js';
import { textNodeHtml } from './marks.js';
import type { RenderState } from './state.js';

export function renderCode(block: BlockNode, state: RenderState, depth: number): string {
  const data = dataOf(block);
  const lines = childrenOf(block).map((line) => {
    if (!isRecord(line)) return '';
    if (line.object === 'text') return textNodeHtml(line, true);
    return renderInlines(inlineChildren(line), state, depth + 1, { preformatted: true });
  });
  const language = classToken(data.syntax);
  const code = element('code', { class: language && `language-${language}` }, lines.map((l) => `<span class="code-line">${l}</span>`).join('\n'));
  // Focusable so that keyboard users can scroll a long line.
  const pre = element('pre', { class: classes('code', data.lineNumbers === true && 'line-numbers', data.overflow === 'wrap' && 'wrap'), tabindex: 0 }, code);
  const title = typeof data.title === 'string' && data.title.trim() ? data.title : undefined;
  return title === undefined ? pre : element('figure', { class: 'code-block' }, element('figcaption', {}, escapeHtml(title)) + pre);
}
