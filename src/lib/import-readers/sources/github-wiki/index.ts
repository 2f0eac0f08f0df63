/**
 * `source: "github-wiki"`: a GitHub (or any) wiki, which is a git repository: cloned through the
 * git sync transport (src/lib/git: the safe fetcher, a shallow fetch of one branch into a
 * temporary bare repository, hostile trees refused, its caps) and turned into a page tree
 * (tree.ts). The branch is the wiki's (`master` on GitHub, else `main`).
 */
import { throwIfAborted } from '../../../fetch/fetch-errors.js';
import { GitError, type GitErrorCode } from '../../../git/errors.js';
import { GitRepository } from '../../../git/repository.js';
import { ImportError, type ImportErrorCode } from '../../import-error.js';
import { wikiMarkupInPool } from '../../in-pool.js';
import { CONVERTED_FORMATS } from './markup.js';
import type { ImportSource } from '../../tree.js';
import { countPages, firstPages } from '../../zip/page-limit.js';
import { isWanted, wikiTree, type Converter } from './tree.js';
import { wikiLocation } from './url.js';

const BRANCHES = ['refs/heads/master', 'refs/heads/main'];

/** The git transport's reasons as the import's own (the codes an import documents), the message kept. */
const IMPORT_CODES: Partial<Record<GitErrorCode, ImportErrorCode>> = {
  GIT_AUTH_FAILED: 'HTTP_ERROR',
  GIT_NOT_FOUND: 'HTTP_ERROR',
  GIT_REF_NOT_FOUND: 'PARSE_ERROR',
  GIT_UNSAFE_TREE: 'PARSE_ERROR',
  GIT_TOO_LARGE: 'TOO_LARGE',
  GIT_PROTOCOL: 'FETCH_ERROR',
};

export const githubWikiSource: ImportSource = async (url, context) => {
  try {
    return await readWiki(url, context);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const code = IMPORT_CODES[error.gitCode];
    throw code ? new ImportError(code, error.message) : error;
  }
};

const readWiki: ImportSource = async (url, context) => {
  const { limits, signal, git } = context;
  if (!git) throw new ImportError('FETCH_ERROR', 'This server cannot clone a wiki here.');
  const location = wikiLocation(url);
  const repo = await GitRepository.open({
    remote: { url: location.remote },
    projectDirectory: '',
    tempRoot: git.tempRoot,
    // The import's bounds where they are tighter: a file, the entries, the time.
    limits: {
      ...git.limits,
      maxBlobBytes: Math.min(git.limits.maxBlobBytes, limits.maxResponseBytes),
      maxEntries: Math.min(git.limits.maxEntries, limits.maxZipEntries),
      totalTimeMs: Math.min(git.limits.totalTimeMs, limits.totalTimeMs),
    },
    signal,
    allowPrivateNetworks: git.allowPrivateNetworks,
  });
  try {
    context.progress(0, undefined, 'Cloning the wiki');
    let tip: string | null = null;
    for (const ref of BRANCHES) if ((tip = await repo.fetchBranch(ref))) break;
    if (!tip) throw new ImportError('PARSE_ERROR', `The wiki at ${location.remote} has no pages (neither a master nor a main branch).`);
    const entries = (await repo.listTree(tip)).filter((entry) => isWanted(entry.path));
    const files = new Map<string, Uint8Array>();
    let read = 0;
    for (const entry of entries) {
      throwIfAborted(signal);
      files.set(entry.path, await repo.readBlob(entry.oid));
      context.progress(++read, entries.length, 'Reading the wiki');
    }
    const convert: Converter = async (format, text, path) => (CONVERTED_FORMATS.includes(format) ? wikiMarkupInPool({ format, text, path }, signal) : undefined);
    const tree = await wikiTree(files, location.webBases, convert);
    const total = countPages(tree.pages) + tree.files.length;
    return { pages: firstPages(tree.pages, limits.maxPages), files: tree.files, totalResources: total, ...(tree.warnings.length ? { warnings: tree.warnings } : {}) };
  } finally {
    await repo.close();
  }
};
