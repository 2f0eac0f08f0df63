/**
 * A page as the search index holds it: sections, each the plain text under one heading. The text
 * before the first heading is a section of its own (anchor ''), then every top-level heading
 * (`heading-1|2|3`) opens one. A section's body is the text of every block under its heading,
 * however deeply nested: list items, hints, quotes, tabs (and their titles), expandables, image
 * captions and table cells (fragments), code lines. Void blocks without text (images, embeds,
 * files, dividers) add nothing.
 *
 * Headings nested in containers (a heading inside a tab, a hint or an expandable) do not open a
 * section: their text stays in the body of the section holding the container, which is where a
 * link to the section lands the reader.
 */
import type { BlockNode, DocumentNode, FragmentNode, InlineNode, JSONDocument, TextNode } from '../../../lib/documents/types.js';
import { slugOf } from '../../../lib/documents/slug.js';

/**
 * At most this many characters of body per section (100,000, about 100 KB of text). What lies
 * beyond is not searchable: a section that long is a data dump rather than prose, and the bound
 * keeps every `tsvector` well under PostgreSQL's 1 MB limit and every statement of the indexer small.
 */
export const MAX_SECTION_BODY = 100_000;

export type PageSection = {
  /** The heading's anchor (unique within the page); '' for the text before the first heading. */
  anchor: string;
  /** The heading's text; '' for the text before the first heading. */
  title: string;
  body: string;
  /** Order in the page, from 0. */
  position: number;
};

const HEADINGS = new Set(['heading-1', 'heading-2', 'heading-3']);

const isText = (node: DocumentNode | FragmentNode): node is TextNode => node.object === 'text';

/** The text of an inline run: leaves joined as written. */
function inlineText(nodes: readonly (InlineNode | TextNode)[] | undefined): string {
  let out = '';
  for (const node of nodes ?? []) {
    if (isText(node)) for (const leaf of node.leaves ?? []) out += leaf.text ?? '';
    else out += inlineText(node.nodes);
  }
  return out;
}

/** Attributes that are text the reader sees: a tab's title, a code block's title. */
function shownData(block: BlockNode): string[] {
  const title = block.data?.title;
  return (block.type === 'tabs-item' || block.type === 'code') && typeof title === 'string' && title.trim() ? [title] : [];
}

/**
 * The plain text of a block, one line per block that holds text. `out` collects lines; the
 * length of what it holds is bounded by `budget` (characters), so a huge page is never copied whole.
 */
function collect(block: BlockNode, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  const push = (text: string) => {
    const line = text.replace(/\s+/g, ' ').trim();
    if (!line) return;
    out.push(line);
    budget.left -= line.length + 1;
  };
  for (const text of shownData(block)) push(text);
  const children = block.nodes ?? [];
  if (children.length && children.every((c) => c.object !== 'block')) {
    // A leaf block (paragraph, heading, code-line...): its inlines and texts are one line.
    push(inlineText(children as (InlineNode | TextNode)[]));
  } else {
    for (const child of children) {
      if (child.object === 'block') collect(child, out, budget);
      else push(inlineText([child]));
    }
  }
  for (const fragment of block.fragments ?? []) for (const child of fragment.nodes ?? []) collect(child, out, budget);
}

/** Cuts `text` to `max` characters without splitting a surrogate pair. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** An anchor from a heading's text. */
export const anchorOf = slugOf;

/**
 * The sections of a page. The text before the first heading is a section when it holds text, or
 * when the page has no heading at all (so that every document page, even an empty one, can be
 * found by its title). A heading's anchor is its custom anchor (`data.id`) when it has one,
 * otherwise the slug of its text; repeated anchors get `-1`, `-2`... as in most renderers.
 */
export function pageSections(document: JSONDocument | null): PageSection[] {
  const sections: { anchor: string; title: string; lines: string[]; budget: { left: number } }[] = [];
  let current = { anchor: '', title: '', lines: [] as string[], budget: { left: MAX_SECTION_BODY } };
  sections.push(current);
  const taken = new Set<string>(['']);
  for (const block of document?.nodes ?? []) {
    if (block?.object !== 'block') continue;
    if (HEADINGS.has(block.type)) {
      const title = inlineText(block.nodes as (InlineNode | TextNode)[] | undefined).replace(/\s+/g, ' ').trim();
      const custom = typeof block.data?.id === 'string' ? block.data.id.trim().slice(0, 100) : '';
      const base = custom || anchorOf(title) || 'section';
      let anchor = base;
      for (let n = 1; taken.has(anchor); n++) anchor = `${base}-${n}`;
      taken.add(anchor);
      current = { anchor, title: cap(title, 1000), lines: [], budget: { left: MAX_SECTION_BODY } };
      sections.push(current);
      continue;
    }
    collect(block, current.lines, current.budget);
  }
  const [intro, ...headed] = sections.map((s, position) => ({ anchor: s.anchor, title: s.title, body: cap(s.lines.join('\n'), MAX_SECTION_BODY), position }));
  const out = intro.body || !headed.length ? [intro, ...headed] : headed;
  return out.map((s, position) => ({ ...s, position }));
}
