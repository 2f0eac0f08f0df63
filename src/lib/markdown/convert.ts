/**
 * A page's markdown → its document, off the event loop and within bounds: the conversion runs in
 * the conversion pool (src/lib/threads/pool.ts), refusing pages past the limits of limits.ts and
 * conversions past the pool's time or memory budget with a MarkdownLimitError naming the limit.
 * Callers answering untrusted input (page bodies, imports) use this rather than the synchronous
 * markdownToDocument. `convertMarkdownStored` answers the document's stored form instead of the
 * document (see tasks.ts `markdownStored`): for a page body that is only stored.
 */
import type { JSONDocument } from '../documents/types.js';
import { PreparedDocument } from '../documents/document-id.js';
import { runTask, WorkerBudgetError } from '../threads/pool.js';
import type { MarkdownOutcome, Refusal, StoredMarkdownOutcome, StoredPage } from '../threads/outcomes.js';
import type { PageMarkdown } from './page.js';
import { MarkdownLimitError } from './limits.js';
import type { ContentRef } from './refs.js';

/** Runs a task of the pool whose refusals are page limits; either way, a MarkdownLimitError names the limit. */
export async function runLimitedTask<I, O extends { ok: true } | Refusal>(task: string, input: I, signal?: AbortSignal): Promise<Extract<O, { ok: true }>> {
  let outcome: O;
  try {
    outcome = await runTask<I, O>(task, input, signal);
  } catch (error) {
    if (error instanceof WorkerBudgetError) throw new MarkdownLimitError(error.limit === 'time' ? 'conversion time' : 'conversion memory', error.message);
    throw error;
  }
  if (!outcome.ok) throw new MarkdownLimitError((outcome as Refusal).limit, (outcome as Refusal).message);
  return outcome as Extract<O, { ok: true }>;
}

export async function convertMarkdown(markdown: string, options: { previous?: JSONDocument; signal?: AbortSignal } = {}): Promise<PageMarkdown> {
  const input = { markdown, ...(options.previous ? { previous: options.previous } : {}) };
  return (await runLimitedTask<typeof input, MarkdownOutcome>('markdown', input, options.signal)).page;
}

export type StoredMarkdown = Omit<StoredPage, 'stored'> & { stored: PreparedDocument };

/**
 * `previousJson`: the page's document before, as JSON text (see revisions/documents.ts
 * loadDocumentText). `links`: link targets resolved by the caller (markdownToDocument `links`).
 */
export async function convertMarkdownStored(
  markdown: string,
  options: { previousJson?: string; links?: Record<string, ContentRef>; signal?: AbortSignal } = {},
): Promise<StoredMarkdown> {
  const input = { markdown, ...(options.previousJson ? { previousJson: options.previousJson } : {}), ...(options.links ? { links: options.links } : {}) };
  return runStoredMarkdownTask('markdownStored', input, options.signal);
}

/** Runs a pool task answering a StoredMarkdownOutcome (`markdownStored`, an import's `importPage`); its stored form made a PreparedDocument. */
export async function runStoredMarkdownTask<I>(task: string, input: I, signal?: AbortSignal): Promise<StoredMarkdown> {
  const { page } = await runLimitedTask<I, StoredMarkdownOutcome>(task, input, signal);
  return { ...page, stored: new PreparedDocument(page.stored) };
}
