/**
 * What every import source yields, whatever it read (a markdown file, an HTML page, a .docx, a
 * zip, a crawled website): a tree of pages with bodies in the platform's markdown dialect, and the
 * files those bodies use. Nothing here touches the database: the import job writes the tree into
 * a change request in one transaction at the end (imports/write-tree.ts), resolving links between
 * the imported pages and files through their `source`.
 */
import type { GitLimits } from '../git/limits.js';

/** A file of the import (an image of a zip, a .docx's embedded picture, a website's image). */
export type ImportedFile = {
  /**
   * Where it came from, unique within the import: a path inside the zip (`images/a.png`, no
   * leading slash) or an absolute URL. A page body's link or image that resolves to this (against
   * the page's own `source`) becomes a reference to the stored file.
   */
  source: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
};

export type ImportedPage = {
  /**
   * Where the page came from, unique within the import: a path inside the zip (`guide/setup.md`)
   * or an absolute URL. Relative links and images of `markdown` resolve against it; a link that
   * resolves to another page's `source` (the part before `#`) becomes a page link.
   */
  source: string;
  /** Used when the markdown does not start with a `#` heading (which is the title otherwise). */
  title?: string;
  /** `group`: only at the top level (e.g. a `## Heading` of SUMMARY.md); groups have no body. */
  type?: 'document' | 'group';
  /** The body in the platform's markdown dialect (src/lib/markdown); links as written in the source. */
  markdown: string;
  children: ImportedPage[];
};

export type ImportTree = {
  pages: ImportedPage[];
  files: ImportedFile[];
  /** What the source offered (pages and files found, including any left out by a limit). */
  totalResources: number;
  /** What was read but could not be converted (kept as written), for the job's result. */
  warnings?: string[];
};

/** Bounds of one import; every source stops (or refuses) at them. */
export type ImportLimits = {
  /** Pages written by one import. */
  maxPages: number;
  /** Link depth a website crawl follows from the start page (0: the start page only). */
  maxDepth: number;
  /** Bytes of one fetched response, and of one file of a zip once uncompressed. */
  maxResponseBytes: number;
  /** Bytes read over the whole import (all responses, or a zip's uncompressed entries). */
  maxTotalBytes: number;
  /** Entries of a zip. */
  maxZipEntries: number;
  /** Time of one request, in ms. */
  requestTimeoutMs: number;
  /** Time of the whole import's reading (fetching and converting), in ms. */
  totalTimeMs: number;
};

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxPages: 500,
  maxDepth: 3,
  maxResponseBytes: 20 * 1024 * 1024,
  maxTotalBytes: 100 * 1024 * 1024,
  maxZipEntries: 5_000,
  requestTimeoutMs: 15_000,
  totalTimeMs: 120_000,
};

/** A fetched response, already checked (address, size, content type) by the safe fetcher. */
export type FetchedResource = {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** The media type without parameters, lower case (`text/html`). */
  contentType: string;
  /** The charset parameter, when given. */
  charset?: string;
  bytes: Uint8Array;
};

export type FetchOptions = {
  /** Media types accepted (`text/html`, `text/*`); anything else fails with `UNSUPPORTED_CONTENT_TYPE`. Omitted: any. */
  accept?: string[];
  /** Overrides the import's `maxResponseBytes` for this request. */
  maxBytes?: number;
};

/** The safe fetcher (imports/fetch): refuses private addresses unless the operator allows them. */
export type SafeFetch = (url: string, options?: FetchOptions) => Promise<FetchedResource>;

/** What a source that clones a git repository (`github-wiki`) needs: where, and within which caps. */
export type GitContext = {
  /** The folder under which the temporary bare repository is made (removed at the end). */
  tempRoot: string;
  allowPrivateNetworks: boolean;
  limits: GitLimits;
};

/** What a source gets besides the URL. */
export type SourceContext = {
  fetch: SafeFetch;
  /** Absent where no git repository may be cloned (the source then fails). */
  git?: GitContext;
  limits: ImportLimits;
  /** Aborted when the job is cancelled or its time is up: stop and throw. */
  signal: AbortSignal;
  /** Progress for the job's subscribers (`total` when known). Cheap: call it per page or file. */
  progress(done: number, total?: number, message?: string): void;
};

/** One import source (`markdown`, `html`, `docx`, `zip`, `website`). */
export type ImportSource = (url: string, context: SourceContext) => Promise<ImportTree>;
