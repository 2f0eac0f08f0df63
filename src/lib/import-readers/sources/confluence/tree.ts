/**
 * A Confluence space export's files → the import's page tree. The export is a folder (the space's
 * key) holding `index.html`, a `Title_<pageId>.html` (or `<pageId>.html`) per page, and
 * `attachments/<pageId>/<attachmentId>.<ext>` (previews in `attachments/thumbnails/`, Confluence's
 * icons in `images/`, its stylesheet in `styles/`: not content).
 *
 * - The tree is index.html's (space-index.ts), in its order; a page it does not list goes under
 *   the nearest page of its breadcrumbs, else at the top, after the others. A page listed twice
 *   is placed once (the second listing's children go where it stood); a listed page whose file is
 *   missing is a page without body, so its children keep their place.
 * - Titles are the index's, else the page's own (without the space's name).
 * - Each attachment becomes a file named as its page lists it (the export names it by its ID);
 *   one the page's body does not show or link is added at the end of the page as a file block.
 * - Links between pages (and their headings), to attachments, and Confluence addresses of
 *   exported pages become links to what was imported (links.ts).
 *
 * Pages are converted in the conversion pool, as many at a time as it has threads.
 */
import { randomBytes } from 'node:crypto';
import { throwIfAborted } from '../../../fetch/fetch-errors.js';
import { slugOf } from '../../../documents/slug.js';
import { stringifyMdast } from '../../../markdown/remark.js';
import { writeTag } from '../../../markdown/tag-syntax.js';
import { poolSettings } from '../../../threads/pool.js';
import { ImportError } from '../../import-error.js';
import { confluenceIndexInPool, confluencePageInPool } from '../../in-pool.js';
import type { ImportedFile, ImportedPage, SourceContext } from '../../tree.js';
import { baseName } from '../../zip/archive-path.js';
import { contentTypeOf } from '../../zip/files.js';
import { encodePath } from '../notion/names.js';
import { archivePath, fillTargets, type ExportNames } from './links.js';
import type { ConfluencePageRead } from './page.js';
import type { IndexEntry } from './space-index.js';

export type ExportFiles = Map<string, Uint8Array>;

const isHtml = (path: string) => /\.html?$/i.test(path);
export const isPagePath = (path: string) => !path.includes('/') && isHtml(path) && !/^index\.html?$/i.test(path);
export const isAttachmentPath = (path: string) => /^attachments\/(?!thumbnails\/)[^/]+\/[^/]+$/.test(path);

/** `Setup-Guide_65539.html` → 65539; `65539.html` → 65539. */
const pageIdOf = (path: string) => /(?:^|_)(\d+)\.html?$/i.exec(path)?.[1];

/** `Setup-Guide_65539.html` → `Setup Guide` (when neither the index nor the page gives a title). */
const titleOfFile = (path: string) => path.replace(/(_\d+)?\.html?$/i, '').replace(/-/g, ' ').trim() || 'Untitled';

/** Runs `work` on each item, `lanes` at a time, in order of the items; the first failure stops the rest. */
async function eachInLanes<T>(items: T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
}

export type ConfluenceTree = { pages: ImportedPage[]; files: ImportedFile[] };

export async function confluenceTree(files: ExportFiles, context: SourceContext): Promise<ConfluenceTree> {
  const { signal } = context;
  const pagePaths = [...files.keys()].filter(isPagePath);
  if (!pagePaths.length) throw new ImportError('PARSE_ERROR', 'This is not a Confluence space export: it holds no pages (HTML files beside index.html).');
  const indexPath = [...files.keys()].find((path) => /^index\.html?$/i.test(path));
  const index = indexPath ? await confluenceIndexInPool(files.get(indexPath)!, signal) : [];

  const prefix = `confluence-link-${randomBytes(8).toString('hex')}-`;
  const reads = new Map<string, ConfluencePageRead>();
  let done = 0;
  await eachInLanes(pagePaths, poolSettings().threads, async (path) => {
    throwIfAborted(signal);
    reads.set(path, await confluencePageInPool({ bytes: files.get(path)!, prefix, path }, signal));
    context.progress(++done, pagePaths.length, 'Converting pages');
  });

  const resolve = (from: string, href: string) => archivePath(from, href, (path) => files.has(path));
  // Titles: the index's first, then each page's own.
  const titles = new Map<string, string>();
  const indexWalk: IndexEntry[] = [...index];
  for (let i = 0; i < indexWalk.length; i++) {
    const entry = indexWalk[i];
    indexWalk.push(...entry.children);
    const path = resolve('index.html', entry.href);
    if (path && entry.title && !titles.has(path)) titles.set(path, entry.title);
  }
  const titleOf = (path: string) => titles.get(path) ?? reads.get(path)?.title ?? titleOfFile(path);

  // What links may name: pages and attachments, by path, ID, title and name.
  const attachmentPaths = [...files.keys()].filter(isAttachmentPath);
  const fileNames = new Map<string, string>();
  for (const [path, read] of reads) {
    for (const attachment of read.attachments) {
      const target = resolve(path, attachment.href);
      if (target && files.has(target) && attachment.name && !fileNames.has(target)) fileNames.set(target, attachment.name);
    }
  }
  const home = index.map((entry) => resolve('index.html', entry.href)).find((path): path is string => !!path && reads.has(path));
  const names: ExportNames = {
    ...(home ? { home } : {}),
    has: (path) => reads.has(path) || (isAttachmentPath(path) && files.has(path)),
    pageById: new Map(pagePaths.flatMap((path) => (pageIdOf(path) ? [[pageIdOf(path)!, path] as const] : []))),
    pageByTitle: new Map(pagePaths.map((path) => [titleOf(path), path] as const)),
    attachmentByName: new Map(attachmentPaths.map((path) => [`${path.split('/')[1]}/${fileNames.get(path) ?? baseName(path)}`, path] as const)),
    attachmentByStem: new Map(attachmentPaths.map((path) => [path.replace(/\.[^./]*$/, ''), path] as const)),
    anchor: (path, id) => {
      const text = reads.get(path)?.headings.find(([heading]) => heading === id)?.[1];
      return text ? slugOf(text) || undefined : undefined;
    },
  };

  const pageOf = (path: string): ImportedPage => {
    const read = reads.get(path)!;
    const { markdown, linked } = fillTargets(read.markdown, prefix, read.targets, path, names);
    // Attachments the body neither shows nor links: listed at the end, as file blocks.
    const listed = read.attachments
      .map((a) => resolve(path, a.href))
      .filter((target): target is string => !!target && files.has(target) && !linked.has(target));
    const blocks = [...new Set(listed)].map((target) => writeTag('file', [['src', `/${encodePath(target)}`]]));
    const heading = stringifyMdast([{ type: 'heading', depth: 1, children: [{ type: 'text', value: titleOf(path) }] }]);
    return { source: encodePath(path), markdown: [heading, markdown, ...blocks].filter(Boolean).join('\n\n') + '\n', children: [] };
  };

  // The index's tree; then the pages it does not list, by their breadcrumbs.
  const placed = new Map<string, ImportedPage>();
  const top: ImportedPage[] = [];
  const stack: { entries: IndexEntry[]; into: ImportedPage[] }[] = [{ entries: index, into: top }];
  let missing = 0;
  while (stack.length) {
    const { entries, into } = stack.pop()!;
    const later: { entries: IndexEntry[]; into: ImportedPage[] }[] = [];
    for (const entry of entries) {
      const path = resolve('index.html', entry.href);
      let page: ImportedPage | undefined;
      if (path && reads.has(path)) {
        if (!placed.has(path)) placed.set(path, (page = pageOf(path)));
      } else if (entry.title) {
        page = { source: path ? encodePath(path) : `index.html/missing-${++missing}`, title: entry.title, markdown: '', children: [] };
      }
      if (page) into.push(page);
      if (entry.children.length) later.push({ entries: entry.children, into: page ? page.children : into });
    }
    stack.push(...later.reverse());
  }
  const unplaced = pagePaths.filter((path) => !placed.has(path));
  for (let progress = true; progress && unplaced.length; ) {
    progress = false;
    for (let i = 0; i < unplaced.length; i++) {
      const path = unplaced[i];
      const parents = reads.get(path)!.ancestors.map((href) => resolve(path, href)).filter((p): p is string => !!p && reads.has(p) && p !== path);
      const parent = parents.at(-1);
      if (parent && !placed.has(parent)) continue;
      const page = pageOf(path);
      (parent ? placed.get(parent)!.children : top).push(page);
      placed.set(path, page);
      unplaced.splice(i--, 1);
      progress = true;
    }
  }
  // Breadcrumbs in a loop: those pages go at the top.
  for (const path of unplaced) top.push(pageOf(path));

  const imported: ImportedFile[] = attachmentPaths.map((path) => {
    const name = fileNames.get(path) ?? baseName(path);
    return { source: encodePath(path), name, contentType: contentTypeOf(name), bytes: files.get(path)! };
  });
  return { pages: top, files: imported };
}
