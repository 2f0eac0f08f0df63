/**
 * What the conversion threads run (see pool.ts): CPU-heavy conversions of untrusted input, each
 * a named export taking and returning structured-cloneable values. A limit breach comes back as a
 * value (`{ok: false}`), not an exception, so its kind survives the thread boundary.
 */
import type { JSONDocument } from '../domain/documents/types.js';
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

/**
 * piscina loads the `default` export when a thread starts, by require() first and import() when
 * that finds no function. From source on Node 20, only tsx's require hook reaches a worker
 * thread (its import hook does not), so a default export must exist.
 */
export default markdown;
