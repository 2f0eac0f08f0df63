/**
 * Processing of one OpenAPI specification, from a URL or a text: fetch (safe fetcher, size and
 * time limits), parse (JSON or YAML), validate (local `$ref`s only), and the facts the API keeps.
 * No database: the job that calls this records the result or the error's code.
 */
import { throwIfAborted } from '../fetch/fetch-errors.js';
import type { SafeFetch } from '../import-readers/tree.js';
import { externalRefIssues } from './external-refs.js';
import { fetchSpecText, MAX_SPEC_BYTES } from './fetch-spec.js';
import { countOperations } from './operations.js';
import { parseSpecText, type SpecFormat } from './parse-document.js';
import { parseError, type SpecIssue } from './processing-error.js';
import { contentHash } from './source-text.js';
import { specKind, validateDocument } from './validate-document.js';

export type SpecSource = { url: string } | { text: string };

export type ProcessSpecOptions = {
  fetch: SafeFetch;
  /** The job's signal: checked between steps (a fetch in flight follows the fetcher's own signal). */
  signal?: AbortSignal;
  progress?: (done: number, total: number, message: string) => void;
  /** Bytes of the source, 10 MiB unless given. */
  maxBytes?: number;
};

export type ProcessedSpec = {
  /** Hex sha256 of the canonical text (source-text.ts): a new version only when it changes. */
  contentHash: string;
  title: string;
  /** `info.version`. */
  version: string;
  /** The `openapi` (3.x) or `swagger` (2.0) version. */
  openapi: string;
  /** Operations under `paths`. */
  operations: number;
  /** Warnings of a valid document (unfollowed external references, lenient rules broken). */
  errors: SpecIssue[];
  /** The source text as received (decoded, without a byte-order mark), and what it was written in. */
  text: string;
  format: SpecFormat;
};

const STEPS = 3;

export async function processSpec(source: SpecSource, options: ProcessSpecOptions): Promise<ProcessedSpec> {
  const { signal } = options;
  const progress = options.progress ?? (() => {});
  const maxBytes = options.maxBytes ?? MAX_SPEC_BYTES;
  throwIfAborted(signal);

  let text: string;
  if ('url' in source) {
    progress(0, STEPS, `Fetching ${source.url}`);
    text = await fetchSpecText(source.url, options.fetch, maxBytes);
  } else {
    progress(0, STEPS, 'Reading the specification text');
    text = source.text.replace(/^\uFEFF/, '');
    if (Buffer.byteLength(text, 'utf8') > maxBytes) throw parseError(`The specification is larger than ${formatBytes(maxBytes)}`, []);
  }
  throwIfAborted(signal);

  progress(1, STEPS, 'Parsing the specification');
  const { document, format } = parseSpecText(text);
  const kind = specKind(document);
  throwIfAborted(signal);

  progress(2, STEPS, `Validating the ${kind.name} ${kind.version} document`);
  const warnings = await validateDocument(document, kind);
  throwIfAborted(signal);

  const info = (document as { info?: { title?: unknown; version?: unknown } }).info;
  const processed: ProcessedSpec = {
    contentHash: contentHash(text),
    title: typeof info?.title === 'string' ? info.title : '',
    version: typeof info?.version === 'string' ? info.version : '',
    openapi: kind.version,
    operations: countOperations(document),
    errors: [...externalRefIssues(document), ...warnings],
    text,
    format,
  };
  progress(STEPS, STEPS, `Processed: ${processed.operations} operations`);
  return processed;
}

const formatBytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);
