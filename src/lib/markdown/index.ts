/**
 * The platform's markdown dialect ↔ the JSON document model, both ways. See
 * ../shared/reference/content-model.md ("The platform's markdown dialect") and README for what
 * does not survive a round trip.
 */
import type { JSONDocument } from '../documents/types.js';
import { contextFor, flowToBlocks } from './from-blocks.js';
import { phrasingToInlines } from './from-inlines.js';
import { readFrontMatter, writeFrontMatter } from './front-matter.js';
import { block, paragraph, plainText, textNode } from './nodes.js';
import { markdownLimitBreach } from './limits.js';
import { prepass } from './prepass.js';
import { ensureKeys, preserveKeys } from './rekey.js';
import type { ContentRef, WriteOptions } from './refs.js';
import { rewriteOwnUrlTargets } from './links.js';
import type { PageMarkdown } from './page.js';
import { parseBodyMdast, parsePageMdast, stringifyMdast } from './remark.js';
import { blocksToMdast } from './to-blocks.js';

export { sameContent, withoutKeys } from './compare.js';
export { convertMarkdown, convertMarkdownStored, type StoredMarkdown } from './convert.js';
export { MarkdownLimitError, MAX_DOCUMENT_BYTES, MAX_LINKS, MAX_NESTING_DEPTH, MAX_TABLE_CELLS } from './limits.js';
export {
  markdownRefOptions,
  relativeTargets,
  resolveLink,
  rewriteOwnUrlTargets,
  rewriteRelativeTargets,
  rewriteUrlTargets,
  type BatchRefs,
  type MarkdownRefs,
  type RelativeTarget,
} from './links.js';
export { ContentLayout, type LayoutFile, type LayoutPage, type LayoutReusableContent } from './layout.js';
export { ensureKeys, preserveKeys } from './rekey.js';
export type { ContentRef, WriteOptions } from './refs.js';

export type { PageMarkdown };

export type ReadOptions = WriteOptions & {
  /**
   * The page's document before this import: blocks whose content is unchanged keep their keys
   * (see rekey.ts). The resolvers are used to write the previous blocks for that comparison, so
   * a previous link to `{kind: 'page'}` matches the `page.md` just read.
   */
  previous?: JSONDocument;
  /**
   * Link targets resolved by the caller (`resolveLink`): each `{kind: 'url'}` target written as
   * a key becomes that reference, before keys are matched against `previous`.
   */
  links?: Readonly<Record<string, ContentRef>>;
};

const document = (nodes: JSONDocument['nodes']): JSONDocument => ({ object: 'document', data: {}, nodes });

function read(markdown: string): PageMarkdown {
  const source = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const pre = prepass(source);
  let root = parsePageMdast(pre.text);
  let frontMatter: Record<string, unknown> = {};
  if (root.children?.[0]?.type === 'yaml') {
    const fields = readFrontMatter(root.children[0].value ?? '');
    // `---\nFoo\n---` is a rule and a heading, not front matter.
    if (fields) frontMatter = fields;
    else root = parseBodyMdast(pre.text);
  }
  const ctx = contextFor(root, pre, 0);
  const flow = (root.children ?? []).filter((n) => n.type !== 'yaml');
  let title: string | undefined;
  if (flow[0]?.type === 'heading' && flow[0].depth === 1) title = plainText({ object: 'block', nodes: phrasingToInlines(flow.shift()!.children ?? [], ctx) });
  const { description, ...rest } = frontMatter;
  return {
    ...(title !== undefined ? { title } : {}),
    ...(typeof description === 'string' ? { description } : {}),
    frontMatter: typeof description === 'string' ? rest : frontMatter,
    document: document(flowToBlocks(flow, ctx)),
  };
}

/**
 * Parses a page's markdown. A `#` heading at the start becomes the title; front matter is read
 * (`description` apart, the rest in `frontMatter`). With `previous`, unchanged blocks keep their
 * keys; every other block and inline gets a new key. Never throws: input the converter cannot
 * read (which should not happen) comes back as one paragraph of text.
 */
export function markdownToDocument(markdown: string, options: ReadOptions = {}): PageMarkdown {
  let page: PageMarkdown;
  try {
    page = read(typeof markdown === 'string' ? markdown : String(markdown ?? ''));
  } catch {
    page = { frontMatter: {}, document: document([paragraph([textNode(String(markdown ?? ''))])]) };
  }
  const links = options.links;
  if (links && Object.keys(links).length) page.document = rewriteOwnUrlTargets(page.document, (url) => (Object.hasOwn(links, url) ? links[url] : undefined));
  if (options.previous) {
    try {
      page.document = preserveKeys(page.document, options.previous, options);
    } catch {
      // A malformed previous document: keys stay new.
    }
  }
  ensureKeys(page.document);
  return page;
}

/**
 * Markdown that is not a page (a review comment, a description): a leading `#` heading stays in
 * the document, as a `heading-1`, instead of becoming the page title.
 */
export function markdownToBody(markdown: string): JSONDocument {
  // Read on the event loop (a review comment, bounded in length): markdown past the limits of
  // limits.ts, which the parser would take seconds over, is shown as its text.
  if (markdownLimitBreach(markdown)) {
    const text = document([paragraph([textNode(markdown)])]);
    ensureKeys(text);
    return text;
  }
  const { title, document: body } = markdownToDocument(markdown);
  if (!title) return body;
  const heading = block('heading-1', {}, [textNode(title)]);
  ensureKeys(document([heading]));
  return { ...body, nodes: [heading, ...body.nodes] };
}

/** Writes a document (and optional title, description, front matter) as markdown in the dialect. */
export function documentToMarkdown(
  doc: JSONDocument,
  options: WriteOptions & { title?: string; description?: string; frontMatter?: Record<string, unknown> } = {},
): string {
  const ctx = { ...options, depth: 0 };
  const { description: ownDescription, ...frontMatter } = options.frontMatter ?? {};
  const description = options.description ?? ownDescription;
  const head = writeFrontMatter({ ...(description !== undefined ? { description } : {}), ...frontMatter });
  const nodes = Array.isArray(doc?.nodes) ? doc.nodes : [];
  let body: string;
  try {
    const title = options.title ? [{ type: 'heading', depth: 1, children: [{ type: 'text', value: options.title.replace(/\s*\n\s*/g, ' ') }] }] : [];
    body = stringifyMdast([...title, ...blocksToMdast(nodes, ctx)]);
  } catch {
    // Defensive: a document the writer cannot handle is written as its text.
    body = [options.title ? `# ${options.title}` : '', ...nodes.map((n) => plainText(n))].filter(Boolean).join('\n\n');
  }
  return `${head}${body}\n`;
}
