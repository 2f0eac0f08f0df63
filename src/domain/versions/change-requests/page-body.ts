/**
 * A page body as written (markdown or a JSON document) turned into the stored form of its
 * document (ID, canonical JSON, links: revisions/document-id.ts), ready for putDocuments. Markdown
 * is converted in the conversion pool, which also answers the stored form, so the event loop never
 * holds the converted document; a large JSON document is keyed and prepared in the pool too
 * (revisions/prepare.ts). A page past the markdown or document limits (or the pool's time or
 * memory budget) is refused with a 400 naming the limit.
 */
import type { JSONDocument } from '../../../lib/documents/types.js';
import { badRequest } from '../../../lib/errors.js';
import { convertMarkdownStored, MarkdownLimitError, type ContentRef } from '../../../lib/markdown/index.js';
import type { PreparedDocument } from '../../../lib/documents/document-id.js';
import { prepareOffLoop } from '../../../lib/documents/prepare.js';
import type { PageBody } from './page-input.js';

export { withKeys } from '../../../lib/documents/with-keys.js';

export type ResolvedBody = {
  stored: PreparedDocument;
  title?: string;
  description?: string;
  frontMatter: Record<string, unknown>;
  /** Markdown bodies: link targets left as URLs, which the batch resolves against its page tree (links.ts). */
  targets?: string[];
};

/** Runs `work`, a limit it breaches refused as a 400 naming `field`. */
async function within<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof MarkdownLimitError) throw badRequest(`Invalid value for "${field}": ${error.message}`, field);
    throw error;
  }
}

const EMPTY: JSONDocument = { object: 'document', data: {}, nodes: [] };

/**
 * `previousJson`: the page's document before this change, as JSON text (loadDocumentText), whose
 * keys unchanged blocks keep. `field`: where the body was in the request, named by a refusal.
 */
export async function resolveBody(body: PageBody, previousJson: string | null, field = 'document'): Promise<ResolvedBody> {
  if ('markdown' in body) {
    const markdown = body.markdown;
    const parsed = await within(`${field}.markdown`, () => convertMarkdownStored(markdown, previousJson ? { previousJson } : {}));
    return { stored: parsed.stored, title: parsed.title, description: parsed.description, frontMatter: parsed.frontMatter, targets: parsed.targets };
  }
  if ('document' in body) return { stored: await within(field, () => prepareOffLoop(body.document as JSONDocument, { keys: true })), frontMatter: {} };
  return { stored: await prepareOffLoop(EMPTY, { keys: false }), frontMatter: {} };
}

/** A markdown body converted again with its link targets resolved (`links`), as in resolveBody. */
export async function relinkBody(markdown: string, previousJson: string | null, links: Record<string, ContentRef>, field: string): Promise<PreparedDocument> {
  return (await within(`${field}.markdown`, () => convertMarkdownStored(markdown, { ...(previousJson ? { previousJson } : {}), links }))).stored;
}
