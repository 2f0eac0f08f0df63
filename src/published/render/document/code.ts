/**
 * Code blocks: a `<figure class="code-block">`: the title (`<figcaption>`), a bar with the
 * language's name and a copy button (hidden until the page script makes it work), then `<pre><code
 * class="language-x">` with one `<span class="code-line">` per `code-line` (line numbers are a
 * CSS counter on those spans, so copying the code does not copy them). A block in a language
 * highlight.js knows, and made of plain text only, is highlighted here (highlight.ts: `hljs-*`
 * token spans); a line holding inlines (links, annotations) keeps them and is not highlighted.
 */
import { childrenOf, dataOf, inlineChildren, isRecord } from '../../../lib/markdown/nodes.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { classes, classToken, element, escapeHtml } from '../html.js';
import { highlightLines, languageOf } from './highlight.js';
import { renderInlines } from './inlines.js';
import { textNodeHtml } from './marks.js';
import type { RenderState } from './state.js';
import { textOf } from './text-of.js';

/** The text of a line when it holds nothing but unmarked text (else undefined: it is rendered as is). */
function plainText(line: unknown): string | undefined {
  if (!isRecord(line)) return '';
  const nodes = line.object === 'text' ? [line] : inlineChildren(line);
  const plain = nodes.every((n) => isRecord(n) && n.object === 'text' && Array.isArray(n.leaves) && n.leaves.every((leaf) => !isRecord(leaf) || !Array.isArray(leaf.marks) || leaf.marks.length === 0));
  return plain ? textOf(nodes.length ? [{ object: 'text', leaves: nodes.flatMap((n) => (n as { leaves: unknown[] }).leaves) }] : []) : undefined;
}

export function renderCode(block: BlockNode, state: RenderState, depth: number): string {
  const data = dataOf(block);
  const source = childrenOf(block);
  const texts = source.map(plainText);
  const highlighted = texts.every((t) => t !== undefined) ? highlightLines((texts as string[]).join('\n'), data.syntax) : undefined;
  const lines =
    highlighted && highlighted.length === source.length
      ? highlighted
      : source.map((line) => {
          if (!isRecord(line)) return '';
          if (line.object === 'text') return textNodeHtml(line, true);
          return renderInlines(inlineChildren(line), state, depth + 1, { preformatted: true });
        });
  const language = classToken(data.syntax);
  const code = element('code', { class: classes(language && `language-${language}`, highlighted && 'hljs') }, lines.map((l) => `<span class="code-line">${l}</span>`).join('\n'));
  // Focusable so that keyboard users can scroll a long line.
  const pre = element('pre', { class: classes('code', data.lineNumbers === true && 'line-numbers', data.overflow === 'wrap' && 'wrap'), tabindex: 0 }, code);
  const title = typeof data.title === 'string' && data.title.trim() ? data.title : undefined;
  const label = languageOf(data.syntax)?.name ?? (typeof data.syntax === 'string' && data.syntax.trim() ? data.syntax.trim().slice(0, 40) : undefined);
  const bar =
    (label === undefined ? '' : element('span', { class: 'code-language' }, escapeHtml(label))) +
    element('button', { type: 'button', class: 'code-copy', hidden: true, 'data-copied': state.strings.copied }, escapeHtml(state.strings.copy));
  const caption = title === undefined ? '' : element('figcaption', {}, escapeHtml(title));
  return element('figure', { class: 'code-block' }, caption + element('div', { class: 'code-bar' }, bar) + pre);
}
