/**
 * An HTML page → a page body in the platform's markdown dialect, its title and the pages it links
 * to. The main content is taken (content.ts), converted to mdast with hast-util-to-mdast and
 * written by the dialect's own writer (markdown/remark.ts: `*` bullets, GFM tables, `{%` escaped
 * so page text never reads as a dialect tag). Links and image addresses stay as written: the
 * import resolves them against the page's source.
 *
 * Never throws. Work is bounded: the input is cut at MAX_HTML_CHARS, the tree's depth, nodes and
 * text are capped (hast-walk.ts), and so are tables (tables.ts); a page the parser cannot take
 * comes back as its text (fallback.ts).
 */
import type { Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import type { Heading, Paragraph, Root as MdastRoot, RootContent } from 'mdast';
import { stringifyMdast, type MdNode } from '../../markdown/remark.js';
import { mainContent, removeNonContent, removePermalinks, takeTitle } from './content.js';
import { textOfHtml } from './fallback.js';
import { TO_MDAST_OPTIONS, markCodeLanguages } from './handlers.js';
import { bound, MAX_TEXT_CHARS } from './hast-walk.js';
import { contentLinks } from './links.js';
import { cleanMdast } from './mdast-cleanup.js';
import { boundTables } from './tables.js';

/** Characters of HTML read (about 2 s of parsing); the rest of a larger page is left out. */
export const MAX_HTML_CHARS = 4_000_000;

export type HtmlMarkdown = { title?: string; markdown: string; links: string[] };

function write(title: string | undefined, children: RootContent[]): string {
  const heading: Heading[] = title ? [{ type: 'heading', depth: 1, children: [{ type: 'text', value: title }] }] : [];
  const markdown = stringifyMdast([...heading, ...children] as unknown as MdNode[]);
  return markdown ? `${markdown}\n` : '';
}

function convert(html: string, baseUrl: string | undefined): HtmlMarkdown {
  const tree = fromHtml(html);
  removeNonContent(tree);
  bound(tree);
  const content = mainContent(tree);
  removePermalinks(content);
  boundTables(content);
  const title = takeTitle(tree, content);
  markCodeLanguages(content);
  const root: Root = content.type === 'root' ? content : { type: 'root', children: [content] };
  const mdast = toMdast(root, TO_MDAST_OPTIONS) as MdastRoot;
  cleanMdast(mdast);
  return { ...(title ? { title } : {}), markdown: write(title, mdast.children), links: contentLinks(content, baseUrl) };
}

function textOnly(html: string): HtmlMarkdown {
  const { title, text } = textOfHtml(html);
  const paragraphs: Paragraph[] = text
    .slice(0, MAX_TEXT_CHARS)
    .split(/\n\s*\n/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((value) => ({ type: 'paragraph', children: [{ type: 'text', value }] }));
  return { ...(title ? { title } : {}), markdown: write(title, paragraphs), links: [] };
}

export function htmlToMarkdown(html: string, options?: { baseUrl?: string }): HtmlMarkdown {
  const source = typeof html === 'string' ? html.slice(0, MAX_HTML_CHARS) : '';
  try {
    return convert(source, options?.baseUrl);
  } catch {
    // The parser or a converter gave up (in practice: a stack overflow on absurd nesting).
  }
  try {
    return textOnly(source);
  } catch {
    return { markdown: '', links: [] };
  }
}
