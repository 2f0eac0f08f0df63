/**
 * A page's markdown → its document, off the event loop and within bounds: the conversion runs in
 * the conversion pool (src/workers/pool.ts), refusing pages past the limits of limits.ts and
 * conversions past the pool's time or memory budget with a MarkdownLimitError naming the limit.
 * Callers answering untrusted input (page bodies, imports) use this rather than the synchronous
 * markdownToDocument.
 */
import type { JSONDocument } from '../documents/types.js';
import { runTask, WorkerBudgetError } from '../../workers/pool.js';
import type { MarkdownOutcome } from '../../workers/tasks.js';
import type { PageMarkdown } from './index.js';
import { MarkdownLimitError } from './limits.js';

export async function convertMarkdown(markdown: string, options: { previous?: JSONDocument; signal?: AbortSignal } = {}): Promise<PageMarkdown> {
  let outcome: MarkdownOutcome;
  try {
    outcome = await runTask<{ markdown: string; previous?: JSONDocument }, MarkdownOutcome>('markdown', { markdown, ...(options.previous ? { previous: options.previous } : {}) }, options.signal);
  } catch (error) {
    if (error instanceof WorkerBudgetError) throw new MarkdownLimitError(error.limit === 'time' ? 'conversion time' : 'conversion memory', error.message);
    throw error;
  }
  if (!outcome.ok) throw new MarkdownLimitError(outcome.limit, outcome.message);
  return outcome.page;
}
