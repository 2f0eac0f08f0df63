/**
 * The CPU-heavy steps of reading an import — HTML → markdown (a 4 MB page parses for ~2 s) and
 * .docx → HTML → markdown (mammoth) — run in the conversion pool (src/lib/threads/pool.ts), so a
 * hostile page or document cannot hold the event loop. A step past the pool's time or memory
 * budget fails the import with TOO_LARGE, naming the limit; a refusal of the reader itself (a
 * corrupt .docx) comes back with its own reason.
 */
import { runTask, WorkerBudgetError } from '../threads/pool.js';
import type { DocxOutcome } from '../threads/outcomes.js';
import { runStoredMarkdownTask, type StoredMarkdown } from '../markdown/convert.js';
import type { ImportTargets } from './link-targets.js';
import type { HtmlMarkdown } from './html/to-markdown.js';
import type { ConfluencePageRead } from './sources/confluence/page.js';
import type { IndexEntry } from './sources/confluence/space-index.js';
import type { WikiFormat } from './sources/github-wiki/formats.js';
import { ImportError, type ImportErrorCode } from './import-error.js';
import type { ImportLimits, ImportTree } from './tree.js';

async function run<I, O>(task: string, input: I, what: string, signal?: AbortSignal): Promise<O> {
  try {
    return await runTask<I, O>(task, input, signal);
  } catch (error) {
    if (error instanceof WorkerBudgetError) throw new ImportError('TOO_LARGE', `${what} cannot be imported: ${error.message}`);
    throw error;
  }
}

/** An HTML page (its bytes, as fetched) → markdown, its title and links. */
export const htmlToMarkdownInPool = (input: { bytes: Uint8Array; charset?: string; baseUrl?: string }, signal?: AbortSignal) =>
  run<typeof input, HtmlMarkdown>('html', input, `The page ${input.baseUrl ?? ''}`.trim(), signal);

/** A Google Docs page published to the web → markdown and its title (sources/google-docs/published-html.ts). */
export const googleDocsHtmlInPool = (input: { bytes: Uint8Array; charset?: string; url: string }, signal?: AbortSignal) =>
  run<{ bytes: Uint8Array; charset?: string }, HtmlMarkdown>('googleDocsHtml', { bytes: input.bytes, ...(input.charset ? { charset: input.charset } : {}) }, `The page ${input.url}`, signal);

/** A page of a Confluence space export (sources/confluence/page.ts). */
export const confluencePageInPool = (input: { bytes: Uint8Array; prefix: string; path: string }, signal?: AbortSignal) =>
  run<{ bytes: Uint8Array; prefix: string }, ConfluencePageRead>('confluencePage', { bytes: input.bytes, prefix: input.prefix }, `The page ${input.path}`, signal);

/** A Confluence space export's index.html → its page tree. */
export const confluenceIndexInPool = (bytes: Uint8Array, signal?: AbortSignal) => run<{ bytes: Uint8Array }, IndexEntry[]>('confluenceIndex', { bytes }, 'The export\'s index.html', signal);

/** A wiki's page in AsciiDoc or Org → markdown (sources/github-wiki/markup.ts). */
export const wikiMarkupInPool = (input: { format: WikiFormat; text: string; path: string }, signal?: AbortSignal) =>
  run<{ format: WikiFormat; text: string }, string | undefined>('wikiMarkup', { format: input.format, text: input.text }, `The page ${input.path}`, signal);

/** A .docx → one page and its pictures. */
export async function docxToTreeInPool(input: { bytes: Uint8Array; name: string; limits: ImportLimits }, signal?: AbortSignal): Promise<ImportTree> {
  const outcome = await run<typeof input, DocxOutcome>('docx', input, `The document ${input.name}`, signal);
  if (!outcome.ok) throw new ImportError(outcome.code as ImportErrorCode, outcome.message);
  return outcome.tree;
}

/**
 * An imported page's markdown → its stored document, its links to what the import writes
 * resolved in the thread (threads/tasks.ts `importPage`); past a page limit, a MarkdownLimitError.
 */
export async function importPageInPool(input: { markdown: string; source: string; previousJson?: string; targets: ImportTargets }, signal?: AbortSignal): Promise<StoredMarkdown> {
  return runStoredMarkdownTask('importPage', input, signal);
}
