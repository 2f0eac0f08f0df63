/**
 * The body of a comment or a reply as written (`{markdown}`, `{document}` or `{}`, like a page's
 * body) → the JSON document kept. Markdown is converted in the conversion pool within its limits
 * (a leading `#` heading stays a heading: a comment has no title); a document is checked like a
 * page's (its shape, its size) and its blocks and inlines get keys. Bodies are capped well below
 * pages: COMMENT_MARKDOWN_MAX characters of markdown, COMMENT_DOCUMENT_MAX bytes of JSON. A
 * refusal is a 400 naming `body`.
 */
import { z } from 'zod';
import type { BlockNode, JSONDocument } from '../../lib/documents/types.js';
import { withKeys } from '../../lib/documents/with-keys.js';
import { badRequest } from '../../lib/errors.js';
import { convertMarkdownStored, ensureKeys, MarkdownLimitError } from '../../lib/markdown/index.js';
import { lazySchema, parseInput } from '../../lib/validation.js';
import type { LinkResolver } from './links.js';

export const COMMENT_MARKDOWN_MAX = 20_000;
export const COMMENT_DOCUMENT_MAX = 100 * 1024;

const documentShape = lazySchema(() => z
  .object({ object: z.literal('document'), data: z.record(z.string(), z.unknown()).optional(), nodes: z.array(z.unknown()) })
  .passthrough());

export const commentBodySchema = lazySchema(() => z.union([
  z.object({ markdown: z.string().max(COMMENT_MARKDOWN_MAX, `at most ${COMMENT_MARKDOWN_MAX} characters of markdown`) }).strict(),
  z.object({ document: documentShape }).strict(),
  z.object({}).strict(),
]));

const EMPTY = (): JSONDocument => ({ object: 'document', data: {}, nodes: [] });

/**
 * A body as sent (GraphQL JSON or REST), validated and converted; `links` resolves the link
 * targets of markdown (links.ts). `field` names the body in refusals.
 */
export async function commentBody(raw: unknown, links?: LinkResolver, field = 'body'): Promise<JSONDocument> {
  if (raw == null || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`Invalid value for "${field}": must be {markdown}, {document} or {}`, field);
  const body = parseInput(commentBodySchema, raw, `${field}.`);
  if ('markdown' in body) return markdownBody(body.markdown, links, field);
  if ('document' in body) {
    const json = JSON.stringify(body.document);
    if (Buffer.byteLength(json) > COMMENT_DOCUMENT_MAX) throw badRequest(`Invalid value for "${field}": at most ${COMMENT_DOCUMENT_MAX} bytes of JSON document`, field);
    return withKeys(body.document as JSONDocument);
  }
  return EMPTY();
}

async function markdownBody(markdown: string, links: LinkResolver | undefined, field: string): Promise<JSONDocument> {
  if (!markdown.trim()) return EMPTY();
  try {
    let page = await convertMarkdownStored(markdown);
    const resolved = page.targets.length && links ? await links(page.targets) : {};
    if (Object.keys(resolved).length) page = await convertMarkdownStored(markdown, { links: resolved });
    // At most COMMENT_MARKDOWN_MAX characters of markdown: a small document to parse.
    const document = JSON.parse(page.stored.json) as JSONDocument;
    const title = page.title;
    if (!title) return document;
    const heading = { object: 'block', type: 'heading-1', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: title, marks: [] }] }] } as BlockNode;
    const withHeading = { ...document, nodes: [heading, ...document.nodes] };
    ensureKeys(withHeading);
    return withHeading;
  } catch (error) {
    if (error instanceof MarkdownLimitError) throw badRequest(`Invalid value for "${field}": ${error.message}`, field);
    throw error;
  }
}
