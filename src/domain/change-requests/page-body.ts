/**
 * A page body as written (markdown or a JSON document) turned into the stored document. Markdown
 * is converted in the conversion pool, off the event loop; a page past the markdown limits (or
 * the pool's time or memory budget) is refused with a 400 naming the limit.
 */
import type { BlockNode, JSONDocument } from '../documents/types.js';
import { newKey } from '../documents/keys.js';
import { badRequest } from '../errors.js';
import { convertMarkdown, MarkdownLimitError } from '../markdown/index.js';
import type { PageBody } from './page-input.js';

export type ResolvedBody = { document: JSONDocument; title?: string; description?: string; frontMatter: Record<string, unknown> };

/** Gives every block and inline without a key one: merges follow blocks by key. */
export function withKeys(document: JSONDocument): JSONDocument {
  const visit = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    const n = node as BlockNode & { fragments?: { nodes: unknown[] }[] };
    const keyed = n.object === 'block' || n.object === 'inline' ? { ...n, key: n.key ?? newKey() } : { ...n };
    if (Array.isArray(n.nodes)) keyed.nodes = n.nodes.map(visit) as never;
    if (Array.isArray(n.fragments)) keyed.fragments = n.fragments.map((f) => ({ ...f, nodes: Array.isArray(f.nodes) ? f.nodes.map(visit) : [] })) as never;
    return keyed;
  };
  return { object: 'document', data: document.data ?? {}, nodes: document.nodes.map(visit) as BlockNode[] };
}

async function convert(markdown: string, previous: JSONDocument | null, field: string) {
  try {
    return await convertMarkdown(markdown, previous ? { previous } : {});
  } catch (error) {
    if (error instanceof MarkdownLimitError) throw badRequest(`Invalid value for "${field}": ${error.message}`, field);
    throw error;
  }
}

/**
 * `previous`: the page's document before this change, whose keys unchanged blocks keep. `field`:
 * where the body was in the request, named by a refusal.
 */
export async function resolveBody(body: PageBody, previous: JSONDocument | null, field = 'document.markdown'): Promise<ResolvedBody> {
  if ('markdown' in body) {
    const parsed = await convert(body.markdown, previous, field);
    return { document: parsed.document, title: parsed.title, description: parsed.description, frontMatter: parsed.frontMatter };
  }
  if ('document' in body) return { document: withKeys(body.document as JSONDocument), frontMatter: {} };
  return { document: { object: 'document', data: {}, nodes: [] }, frontMatter: {} };
}
