/**
 * What the conversion threads run (see pool.ts): CPU-heavy conversions of untrusted input, each
 * a named export taking and returning structured-cloneable values. A limit breach comes back as a
 * value (`{ok: false}`), not an exception, so its kind survives the thread boundary.
 */
import type { JSONDocument } from '../domain/documents/types.js';
import { decodeHtml } from '../domain/imports/html/charset.js';
import { htmlToMarkdown, type HtmlMarkdown } from '../domain/imports/html/to-markdown.js';
import { ImportError } from '../domain/imports/import-error.js';
import { docxToTree } from '../domain/imports/sources/docx.js';
import type { ImportLimits, ImportTree } from '../domain/imports/tree.js';
import { markdownToDocument, type PageMarkdown } from '../domain/markdown/index.js';
import { documentSizeBreach, markdownLimitBreach, type MarkdownLimit } from '../domain/markdown/limits.js';

export type Refusal = { ok: false; limit: MarkdownLimit; message: string };
export type MarkdownOutcome = { ok: true; page: PageMarkdown } | Refusal;

/** A page's markdown → its document (keys of `previous` kept for unchanged blocks), within the page limits. */
export function markdown(input: { markdown: string; previous?: JSONDocument }): MarkdownOutcome {
  const breach = markdownLimitBreach(input.markdown);
  if (breach) return { ok: false, limit: breach.limit, message: breach.message };
  const page = markdownToDocument(input.markdown, input.previous ? { previous: input.previous } : {});
  const tooLarge = documentSizeBreach(JSON.stringify(page.document).length);
  if (tooLarge) return { ok: false, limit: tooLarge.limit, message: tooLarge.message };
  return { ok: true, page };
}

/** An HTML page's bytes → its markdown (html/to-markdown.ts, which never throws). */
export function html(input: { bytes: Uint8Array; charset?: string; baseUrl?: string }): HtmlMarkdown {
  return htmlToMarkdown(decodeHtml(input.bytes, input.charset), input.baseUrl ? { baseUrl: input.baseUrl } : undefined);
}

export type DocxOutcome = { ok: true; tree: ImportTree } | { ok: false; code: string; message: string };

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
