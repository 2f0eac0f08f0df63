/**
 * mdast phrasing content → the model's inline content: emphasis, strong, delete and inline code
 * become marks on leaves; links and images become inlines; `$$…$$` becomes `inline-math`; known
 * inline HTML (`<mark>`, `<sup>`, `<kbd>`, `<br>`, `<a href>`, `<img>`…) becomes marks or inlines,
 * other HTML stays text. A soft line break reads as a space, a hard one as `\n` in the text.
 */
import type { Mark } from '../documents/types.js';
import { decodeEntities, tokenizeHtml } from './html.js';
import { InlineBuilder } from './inline-builder.js';
import { inline, mark, type InlineChild } from './nodes.js';
import { restorePlaceholders, type Prepass } from './prepass.js';
import { urlToRef } from './refs.js';
import type { MdNode } from './remark.js';

export type ParseContext = {
  pre: Prepass;
  /** Nesting depth, bounded so that hostile input cannot exhaust the stack. */
  depth: number;
  /** Link reference definitions of the markdown being read (identifier → URL). */
  definitions: Map<string, string>;
  /** Set while reading a container's body whose items must not be wrapped (see from-blocks). */
  itemType?: string;
};

export const MAX_DEPTH = 40;

/** The text content of an mdast node (image alt included). */
export function mdText(node: MdNode, depth = 0): string {
  if (depth > 200) return '';
  if (typeof node.value === 'string') return node.value;
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  return (node.children ?? []).map((c) => mdText(c, depth + 1)).join('');
}

export function imageData(url: string, alt: string | null | undefined): Record<string, unknown> {
  return alt ? { ref: urlToRef(url), alt } : { ref: urlToRef(url) };
}

const withMark = (marks: readonly Mark[], type: string) => [...marks, mark(type)];

function walk(nodes: MdNode[], marks: readonly Mark[], out: InlineBuilder, ctx: ParseContext, depth: number): void {
  for (const node of nodes) {
    if (depth > MAX_DEPTH * 4) {
      out.text(mdText(node), marks);
      continue;
    }
    const children = node.children ?? [];
    switch (node.type) {
      case 'text':
        out.text(restorePlaceholders(ctx.pre, (node.value ?? '').replace(/[ \t]*\n[ \t]*/g, ' ')), marks);
        break;
      case 'emphasis':
        walk(children, withMark(marks, 'italic'), out, ctx, depth + 1);
        break;
      case 'strong':
        walk(children, withMark(marks, 'bold'), out, ctx, depth + 1);
        break;
      case 'delete':
        walk(children, withMark(marks, 'strikethrough'), out, ctx, depth + 1);
        break;
      case 'inlineCode':
        // CommonMark: line endings in a code span are spaces (mdast keeps them).
        out.text(restorePlaceholders(ctx.pre, (node.value ?? '').replace(/\n/g, ' ')), withMark(marks, 'code'));
        break;
      case 'break':
        out.text('\n', marks);
        break;
      case 'link':
        out.link(node.url ?? '', () => walk(children, marks, out, ctx, depth + 1));
        break;
      case 'linkReference': {
        const url = ctx.definitions.get(node.identifier ?? '');
        if (url === undefined) walk(children, marks, out, ctx, depth + 1);
        else out.link(url, () => walk(children, marks, out, ctx, depth + 1));
        break;
      }
      case 'image':
      case 'imageReference': {
        const url = node.type === 'image' ? node.url : ctx.definitions.get(node.identifier ?? '');
        if (url === undefined) out.text(node.alt ?? '', marks);
        else out.inline(inline('inline-image', imageData(url, node.alt)));
        break;
      }
      case 'inlineMath':
        out.inline(inline('inline-math', { formula: node.value ?? '' }));
        break;
      case 'html': {
        const value = node.value ?? '';
        if (value.includes(ctx.pre.nonce)) out.text(restorePlaceholders(ctx.pre, value), marks);
        else if (!out.html(value, marks)) out.text(value.replace(/[ \t]*\n[ \t]*/g, ' '), marks);
        break;
      }
      case 'footnoteReference':
        out.text(`[^${node.label ?? node.identifier ?? ''}]`, marks);
        break;
      default:
        out.text(mdText(node), marks);
    }
  }
}

export function phrasingToInlines(nodes: MdNode[], ctx: ParseContext): InlineChild[] {
  const out = new InlineBuilder();
  walk(nodes, [], out, ctx, 0);
  return out.result();
}

/**
 * Inline HTML (an image caption, an expandable's summary) → inline content. Only HTML is read
 * here, not markdown: the platform writes these parts as HTML. Line breaks in the source are spaces.
 */
export function htmlToInlines(html: string): InlineChild[] {
  const out = new InlineBuilder();
  for (const token of tokenizeHtml(html.trim())) {
    if (token.tag !== undefined) {
      if (!out.html(token.tag)) out.text(token.tag);
    } else {
      out.text(decodeEntities((token.text ?? '').replace(/\s*\n\s*/g, ' ')));
    }
  }
  return out.result();
}
