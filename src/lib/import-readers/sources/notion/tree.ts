/**
 * A Notion export's files → the import's page tree. In each folder of the export:
 *
 * - a page `Title <id>.md` is a page titled `Title` (its own `# Title` heading when it has one),
 *   and the folder `Title <id>/` beside it holds its subpages, images and attachments;
 * - a database `Name <id>.csv` (or `Name <id>_all.csv`, every row: preferred) is a table page,
 *   and the folder `Name <id>/` beside it holds its rows' pages, its children;
 * - a folder with neither is a page of its own, without a body, named after the folder (one named
 *   by an id alone is no page: its content belongs to the folder above);
 * - every other file (an image, a PDF…) is a file of the import.
 *
 * Notion's export keeps no order of its own: subpages follow the order in which their parent's
 * body links to them (Notion writes a link where each subpage sits), the others come after, in
 * natural order of their titles. Sources are the entries' paths, percent-encoded (names.ts).
 */
import type { ImportedFile, ImportedPage } from '../../tree.js';
import { contentTypeOf } from '../../zip/files.js';
import { decodeText, readPageContent } from '../../zip/pages.js';
import type { ExportFiles } from './archive.js';
import { csvToMarkdown } from './csv.js';
import { calloutsToHints, linkPropertyRelations, linkRelations, rewriteLinks, type Targets } from './links.js';
import { databaseKey, encodePath, extension, isIdOnly, PAGE_EXTENSIONS, splitId, stem } from './names.js';

type Folder = { path: string; files: string[]; folders: Map<string, Folder> };

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function folderTree(paths: Iterable<string>): Folder {
  const root: Folder = { path: '', files: [], folders: new Map() };
  for (const path of paths) {
    let folder = root;
    for (const name of path.split('/').slice(0, -1)) {
      let next = folder.folders.get(name);
      if (!next) folder.folders.set(name, (next = { path: `${folder.path}${name}/`, files: [], folders: new Map() }));
      folder = next;
    }
    folder.files.push(path);
  }
  return root;
}

const isPageFile = (path: string) => PAGE_EXTENSIONS.has(extension(path)) && !/^index\.html?$/i.test(path);

export type NotionTree = { pages: ImportedPage[]; files: ImportedFile[] };

export function notionTree(files: ExportFiles): NotionTree {
  const root = folderTree(files.keys());
  // Pages (and databases) by block id, for notion.so links.
  const byId = new Map<string, string>();
  for (const path of files.keys()) {
    if (!isPageFile(path) && extension(path) !== 'csv') continue;
    const { id } = splitId(databaseKey(baseName(path)));
    if (id && !byId.has(id)) byId.set(id, extension(path) === 'csv' ? csvSource(path) : path);
  }
  const targets: Targets = {
    known: (path) => files.has(path) || files.has(path.replace(/\.csv$/i, '_all.csv')),
    byId: (id) => byId.get(id),
  };

  type Item = { page: ImportedPage; title: string; path: string };
  const itemsOf = (folder: Folder): Item[] => {
    const items: Item[] = [];
    const used = new Set<string>();
    // A folder is the children of one page: a page and a database of the same name do not share it.
    const sub = (key: string) => {
      const found = used.has(key) ? undefined : folder.folders.get(key);
      if (found) used.add(key);
      return found;
    };
    // Databases: one table page per key, from `_all.csv` when there is one.
    const databases = new Map<string, string>();
    for (const path of folder.files) {
      if (extension(path) !== 'csv') continue;
      const key = databaseKey(baseName(path));
      if (!databases.has(key) || stem(baseName(path)).endsWith('_all')) databases.set(key, path);
    }
    for (const path of folder.files) {
      if (!isPageFile(path)) continue;
      const key = stem(baseName(path));
      const { title } = splitId(key);
      const content = readPageContent(path, files.get(path)!, title);
      const rewritten = rewriteLinks(linkPropertyRelations(calloutsToHints(content.markdown), path, targets), path, targets);
      const children = sub(key);
      const childItems = children ? itemsOf(children) : [];
      const page: ImportedPage = {
        source: encodePath(path),
        ...(content.title !== undefined ? { title: content.title } : {}),
        markdown: rewritten.markdown,
        children: ordered(childItems, rewritten.linked).map((item) => item.page),
      };
      items.push({ page, title, path });
    }
    for (const [key, path] of databases) {
      const { title } = splitId(key);
      const rows = sub(key);
      const childItems = rows ? itemsOf(rows) : [];
      const rowPages = new Map<string, string>();
      for (const item of childItems) if (!rowPages.has(item.title)) rowPages.set(item.title, item.page.source);
      const markdown = csvToMarkdown(
        title,
        decodeText(files.get(path)!),
        (name) => {
          const source = rowPages.get(name);
          return source ? `/${source}` : undefined;
        },
        (cell) => linkRelations(cell, path, targets),
      );
      const source = csvSource(path);
      items.push({ page: { source: encodePath(source), markdown, children: sortByTitle(childItems).map((item) => item.page) }, title, path: source });
    }
    for (const [name, child] of folder.folders) {
      if (used.has(name)) continue;
      const childItems = itemsOf(child);
      if (isIdOnly(name)) items.push(...childItems);
      else if (childItems.length) {
        const { title } = splitId(name);
        items.push({ page: { source: `${encodePath(child.path.slice(0, -1))}/`, title, markdown: '', children: sortByTitle(childItems).map((item) => item.page) }, title, path: child.path });
      }
    }
    return items;
  };

  const top = sortByTitle(itemsOf(root));
  const imported: ImportedFile[] = [];
  for (const [path, bytes] of files) {
    if (isPageFile(path) || extension(path) === 'csv') continue;
    imported.push({ source: encodePath(path), name: baseName(path), contentType: contentTypeOf(path), bytes });
  }
  return { pages: top.map((item) => item.page), files: imported };
}

/** A database's page is named by its `.csv` (what Notion's links name), even when read from `_all.csv`. */
const csvSource = (path: string) => path.replace(/_all\.csv$/i, '.csv');

function sortByTitle<T extends { title: string; path: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => collator.compare(a.title, b.title) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The items the parent's body links to first, in the order of those links; the rest by title. */
function ordered<T extends { title: string; path: string }>(items: T[], linked: string[]): T[] {
  const position = new Map<string, number>();
  linked.forEach((path, i) => position.has(path) || position.set(path, i));
  const rank = (item: T) => position.get(item.path) ?? Number.POSITIVE_INFINITY;
  // Stable: items not linked keep their order by title.
  return sortByTitle(items).sort((a, b) => (rank(a) === rank(b) ? 0 : rank(a) < rank(b) ? -1 : 1));
}
