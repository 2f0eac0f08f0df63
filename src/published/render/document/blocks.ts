/**
 * Blocks → HTML, one renderer per block type; unknown blocks show their content. Every container
 * renders its children one level deeper, and below MAX_DEPTH a subtree is written as plain text,
 * so the recursion stays bounded however deep the document.
 */
import { blockChildren, childrenOf, dataOf, fragmentNamed, fragmentsOf, inlineChildren, isRecord } from '../../../lib/markdown/nodes.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { element } from '../html.js';
import { renderContentRef, renderEmbed } from './cards.js';
import { renderCode } from './code.js';
import { isHeading, renderHeading } from './headings.js';
import { renderInlines } from './inlines.js';
import { renderList } from './lists.js';
import { mathHtml } from './math.js';
import { textHtml } from './marks.js';
import { renderFile, renderImage, renderImages } from './media.js';
import { MAX_DEPTH, type RenderState } from './state.js';
import { renderTable } from './table.js';
import { renderTabs } from './tabs.js';
import { textOf } from './text-of.js';

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success'] as const);
type HintStyle = typeof HINT_STYLES extends Set<infer T> ? T : never;

/**
 * Blocks in order. `top`: these are the document's own top-level blocks (or those of a
 * reusable content included at the top level), whose headings make the page outline.
 */
export function renderBlocks(nodes: unknown[], state: RenderState, depth: number, top = false): string {
  if (depth > MAX_DEPTH) {
    const text = textOf(nodes);
    return text ? element('p', { class: 'truncated' }, textHtml(text)) : '';
  }
  let html = '';
  let stray: unknown[] = [];
  const flush = () => {
    if (stray.length) html += element('p', {}, renderInlines(stray, state, depth + 1));
    stray = [];
  };
  for (const node of nodes) {
    if (!isRecord(node)) continue;
    // Texts and inlines directly among blocks (malformed) are gathered into a paragraph.
    if (node.object === 'text' || node.object === 'inline') stray.push(node);
    else if (node.object === 'block') {
      flush();
      html += renderBlock(node as BlockNode, state, depth, top);
    }
  }
  flush();
  return html;
}

const children = (block: BlockNode, state: RenderState, depth: number) => renderBlocks(blockChildren(block), state, depth + 1);

function renderBlock(block: BlockNode, state: RenderState, depth: number, top: boolean): string {
  const data = dataOf(block);
  const type = typeof block.type === 'string' ? block.type : '';
  if (isHeading(type)) return renderHeading(block, state, depth, top);
  switch (type) {
    case 'paragraph':
      return element('p', {}, renderInlines(childrenOf(block), state, depth + 1));
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return renderList(block, state, depth, renderBlocks);
    case 'blockquote':
      return element('blockquote', {}, children(block, state, depth));
    case 'hint': {
      const style: HintStyle = HINT_STYLES.has(data.style as HintStyle) ? (data.style as HintStyle) : 'info';
      return element('div', { class: `hint hint-${style}`, role: 'note', 'aria-label': state.strings[style] }, children(block, state, depth));
    }
    case 'code':
      return renderCode(block, state, depth);
    case 'tabs':
      return renderTabs(block, state, depth, renderBlocks);
    case 'expandable':
      return renderExpandable(block, state, depth);
    case 'table':
      return renderTable(block, state, depth, renderBlocks);
    case 'images':
      return renderImages(block, state, depth);
    case 'image':
      return renderImage(block, state, depth);
    case 'file':
      return renderFile(block, state);
    case 'embed':
      return renderEmbed(block);
    case 'content-ref':
      return renderContentRef(block, state);
    case 'math':
      state.math = true;
      return element('div', { class: 'math-block' }, mathHtml(data.formula, true));
    case 'divider':
      return '<hr>';
    case 'reusable-content':
      return renderReusable(block, state, depth, top);
    case 'stepper':
      return element('ol', { class: 'stepper' }, blockChildren(block).map((step) => element('li', { class: 'stepper-step' }, children(step, state, depth + 1))).join(''));
    case 'columns':
      return element('div', { class: 'columns' }, blockChildren(block).map((column) => element('div', { class: 'column' }, children(column, state, depth + 1))).join(''));
    case 'if':
      // Content shown only to visitors matching an expression: it cannot be evaluated here, so
      // it is left out rather than shown to everyone.
      return '';
    default:
      return renderUnknown(block, state, depth);
  }
}

function renderExpandable(block: BlockNode, state: RenderState, depth: number): string {
  const title = fragmentNamed(block, 'expandable-title');
  const body = fragmentNamed(block, 'expandable-body');
  const summary = title ? blockChildren(title).map((p) => renderInlines(inlineChildren(p), state, depth + 1)).join(' ') : '';
  const inner = body ? renderBlocks(blockChildren(body), state, depth + 1) : '';
  return element('details', { class: 'expandable', open: dataOf(block).defaultExpanded === true }, element('summary', {}, summary) + element('div', { class: 'expandable-body' }, inner));
}

/** A reusable content's body in place of its block; one that includes itself is not expanded again. */
function renderReusable(block: BlockNode, state: RenderState, depth: number, top: boolean): string {
  const ref = dataOf(block).ref;
  const id = isRecord(ref) && typeof ref.reusableContent === 'string' ? ref.reusableContent : undefined;
  if (!id || state.including.has(id) || !state.context.reusableContent) return '';
  const document = state.context.reusableContent(id);
  if (!document) return '';
  state.including.add(id);
  try {
    return element('div', { class: 'reusable-content' }, renderBlocks(blockChildren(document), state, depth + 1, top));
  } finally {
    state.including.delete(id);
  }
}

/** A block this renderer does not know: its child blocks, its inline content, or its fragments' blocks. */
function renderUnknown(block: BlockNode, state: RenderState, depth: number): string {
  const blocks = blockChildren(block);
  if (blocks.length) return children(block, state, depth);
  const inlines = inlineChildren(block);
  if (inlines.length) return element('p', {}, renderInlines(inlines, state, depth + 1));
  return fragmentsOf(block)
    .map((f) => renderBlocks(blockChildren(f), state, depth + 1))
    .join('');
}
