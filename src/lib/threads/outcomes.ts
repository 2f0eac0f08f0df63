/**
 * What the conversion threads answer (tasks.ts): plain, structured-cloneable values, a limit
 * breach or an import's refusal included. Apart from the tasks themselves, so the callers on the
 * event loop (markdown/convert.ts, import-readers/in-pool.ts, documents/prepare.ts) name these
 * types without importing what the tasks import.
 */
import type { PreparedFields } from '../documents/document-id.js';
import type { ImportTree } from '../import-readers/tree.js';
import type { PageMarkdown } from '../markdown/page.js';
import type { MarkdownLimit } from '../markdown/limits.js';

export type Refusal = { ok: false; limit: MarkdownLimit; message: string };
export type MarkdownOutcome = { ok: true; page: PageMarkdown } | Refusal;
/** A converted page in its stored form: the document itself stays in the thread. */
export type StoredPage = Omit<PageMarkdown, 'document'> & {
  stored: PreparedFields;
  /** Link targets left as relative URLs (`./x.md`, `/pages/…`, `/files/…`), for the caller to resolve. */
  targets: string[];
};
export type StoredMarkdownOutcome = { ok: true; page: StoredPage } | Refusal;
export type StoredDocumentOutcome = { ok: true; stored: PreparedFields } | Refusal;

export type DocxOutcome = { ok: true; tree: ImportTree } | { ok: false; code: string; message: string };
