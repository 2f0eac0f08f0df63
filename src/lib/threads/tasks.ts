/**
 * What the conversion threads run (see pool.ts): CPU-heavy conversions of untrusted input, each
 * a named export taking and returning structured-cloneable values. A limit breach comes back as a
 * value (`{ok: false}`), not an exception, so its kind survives the thread boundary.
 */
import type { JSONDocument } from '../documents/types.js';
import { withKeys } from '../documents/with-keys.js';
import { decodeHtml } from '../import-readers/html/charset.js';
import { htmlToMarkdown, type HtmlMarkdown } from '../import-readers/html/to-markdown.js';
import { ImportError } from '../import-readers/import-error.js';
import { docxToTree } from '../import-readers/sources/docx.js';
import type { WikiFormat } from '../import-readers/sources/github-wiki/formats.js';
import { markupToMarkdown } from '../import-readers/sources/github-wiki/markup.js';
import { googleDocsHtml as googleDocsPage } from '../import-readers/sources/google-docs/published-html.js';
import { readConfluencePage, type ConfluencePageRead } from '../import-readers/sources/confluence/page.js';
import { readSpaceIndex, type IndexEntry } from '../import-readers/sources/confluence/space-index.js';
import type { ImportLimits } from '../import-readers/tree.js';
import { cachedTargets, importedTarget, type ImportTargets } from '../import-readers/link-targets.js';
import { markdownToDocument, relativeTargets, rewriteOwnUrlTargets, type ContentRef } from '../markdown/index.js';
import { documentSizeBreach, markdownLimitBreach, type MarkdownLimit } from '../markdown/limits.js';
import type { DocxOutcome, MarkdownOutcome, Refusal, StoredDocumentOutcome, StoredMarkdownOutcome } from './outcomes.js';
import { preparedFields } from '../documents/document-id.js';
import { parseSpecText } from '../openapi/parse-document.js';

const refusal = (error: { limit: MarkdownLimit; message: string }): Refusal => ({ ok: false, limit: error.limit, message: error.message });

/** A page's markdown → its document (keys of `previous` kept for unchanged blocks), within the page limits. */
export function markdown(input: { markdown: string; previous?: JSONDocument }): MarkdownOutcome {
  const breach = markdownLimitBreach(input.markdown);
  if (breach) return refusal(breach);
  const page = markdownToDocument(input.markdown, input.previous ? { previous: input.previous } : {});
  const tooLarge = documentSizeBreach(JSON.stringify(page.document).length);
  if (tooLarge) return refusal(tooLarge);
  return { ok: true, page };
}

/**
 * A page's markdown → its document's stored form (canonical JSON, ID, links), so the event loop
 * neither receives the document (a structured clone of 5 MB: ~100 ms) nor stringifies and hashes
 * it (~200 ms). `previous` comes as JSON text, parsed here for the same reason. `links`: targets
 * the caller resolved (after a first conversion answered them as `targets`), rewritten before
 * the keys of `previous` are matched.
 */
export function markdownStored(input: { markdown: string; previousJson?: string; links?: Record<string, ContentRef> }): StoredMarkdownOutcome {
  const breach = markdownLimitBreach(input.markdown);
  if (breach) return refusal(breach);
  const previous = input.previousJson ? (JSON.parse(input.previousJson) as JSONDocument) : undefined;
  const { document, ...page } = markdownToDocument(input.markdown, { ...(previous ? { previous } : {}), ...(input.links ? { links: input.links } : {}) });
  return storedOutcome(document, page);
}

/** A converted page's answer: its document's stored form, refused past the size limit. */
function storedOutcome(document: JSONDocument, page: Omit<ReturnType<typeof markdownToDocument>, 'document'>): StoredMarkdownOutcome {
  const stored = preparedFields(document);
  // The canonical JSON has the characters of JSON.stringify's, in another order: the same length.
  const tooLarge = documentSizeBreach(stored.json.length);
  if (tooLarge) return refusal(tooLarge);
  // The targets still URLs that the caller may resolve against the page tree (links.ts resolveLink).
  return { ok: true, page: { ...page, stored, targets: relativeTargets(document).map((t) => t.url) } };
}

/**
 * An imported page's markdown (read from `source`) → its document's stored form, with its links
 * and images that name what the import writes (`targets`) made references (keys of `previous`
 * kept for unchanged blocks, before); `targets` in the answer: those left as relative URLs, which
 * the import resolves against the change request's tree once it is written.
 */
export function importPage(input: { markdown: string; source: string; previousJson?: string; targets: ImportTargets }): StoredMarkdownOutcome {
  const breach = markdownLimitBreach(input.markdown);
  if (breach) return refusal(breach);
  const previous = input.previousJson ? (JSON.parse(input.previousJson) as JSONDocument) : undefined;
  const { document: read, ...page } = markdownToDocument(input.markdown, previous ? { previous } : {});
  return storedOutcome(rewriteOwnUrlTargets(read, importedTarget(cachedTargets(input.targets), input.source)), page);
}

/**
 * A JSON document sent as a page body (as JSON text) → keys given to its blocks (`keys`), then its
 * stored form; past the document size limit, refused.
 */
export function storeDocument(input: { json: string; keys: boolean }): StoredDocumentOutcome {
  const parsed = JSON.parse(input.json) as JSONDocument;
  const stored = preparedFields(input.keys ? withKeys(parsed) : parsed);
  const tooLarge = documentSizeBreach(stored.json.length);
  return tooLarge ? refusal(tooLarge) : { ok: true, stored };
}

/** An HTML page's bytes → its markdown (html/to-markdown.ts, which never throws). */
export function html(input: { bytes: Uint8Array; charset?: string; baseUrl?: string }): HtmlMarkdown {
  return htmlToMarkdown(decodeHtml(input.bytes, input.charset), input.baseUrl ? { baseUrl: input.baseUrl } : undefined);
}

/** A Google Docs page published to the web → its markdown (sources/google-docs/published-html.ts). */
export function googleDocsHtml(input: { bytes: Uint8Array; charset?: string }): HtmlMarkdown {
  return googleDocsPage(input);
}

/** A page of a Confluence space export → its body, title, breadcrumbs and attachments (sources/confluence/page.ts). */
export function confluencePage(input: { bytes: Uint8Array; prefix: string }): ConfluencePageRead {
  return readConfluencePage(input);
}

/** A Confluence space export's index.html → its page tree (sources/confluence/space-index.ts). */
export function confluenceIndex(input: { bytes: Uint8Array }): IndexEntry[] {
  return readSpaceIndex(input);
}

/** A wiki's page in AsciiDoc or Org → markdown (sources/github-wiki/markup.ts); undefined for another format. */
export function wikiMarkup(input: { format: WikiFormat; text: string }): Promise<string | undefined> {
  return markupToMarkdown(input.format, input.text);
}

/** A .docx → its page and pictures; the import's own refusals (a corrupt file, too large) as values. */
export async function docx(input: { bytes: Uint8Array; name: string; limits: ImportLimits }): Promise<DocxOutcome> {
  try {
    return { ok: true, tree: await docxToTree(input.bytes, { name: input.name, limits: input.limits }) };
  } catch (error) {
    if (error instanceof ImportError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/**
 * piscina loads the `default` export when a thread starts, by require() first and import() when
 * that finds no function. From source on Node 20, only tsx's require hook reaches a worker
 * thread (its import hook does not), so a default export must exist.
 */
export default markdown;

/** An OpenAPI specification's text (JSON or YAML, within the parser's bounds) → its document. */
export function openapiDocument(input: { text: string }): unknown {
  return parseSpecText(input.text).document;
}
