/**
 * Names in a Notion export: every page, database and folder carries its 32-hex block id after a
 * space (`Getting started 0123456789abcdef0123456789abcdef.md`, a folder of the same name for its
 * subpages); a database is a CSV, alongside `…_all.csv` (every row, where the other holds the
 * view's) in newer exports. Titles and slugs are the names without the id.
 */

const ID_SUFFIX = /^(.*?)\s+([0-9a-f]{32})$/i;

export const PAGE_EXTENSIONS = new Set(['md', 'markdown', 'html', 'htm']);

export type NotionName = {
  /** The name without its id and extension (`Getting started`); `Untitled` for a page without one. */
  title: string;
  /** The block id, lower case, without dashes. */
  id?: string;
};

/** `Name <id>` (no extension) → its title and id. */
export function splitId(stem: string): NotionName {
  const match = ID_SUFFIX.exec(stem.trim());
  if (!match) return { title: stem.trim() || 'Untitled' };
  return { title: match[1].trim() || 'Untitled', id: match[2].toLowerCase() };
}

/** A folder named by an id alone (large exports hold some): its content belongs to the folder above. */
export const isIdOnly = (name: string) => /^[0-9a-f]{32}$/i.test(name.trim());

export function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export const stem = (name: string) => (extension(name) ? name.slice(0, name.lastIndexOf('.')) : name);

/** A database's key (`Tasks <id>`) from either of its CSVs (`Tasks <id>.csv`, `Tasks <id>_all.csv`). */
export const databaseKey = (name: string) => stem(name).replace(/_all$/, '');

/**
 * The id of a page a notion.so (or notion.site) URL names: the last 32 hex digits of its last
 * path segment (`Title-<id>`, or a dashed UUID), or of its `p` parameter (a page opened as a peek).
 */
export function idOfNotionUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (!/(^|\.)notion\.(so|site)$/i.test(url.hostname) && !/(^|\.)notion\.com$/i.test(url.hostname)) return undefined;
  for (const candidate of [url.searchParams.get('p') ?? '', url.pathname.split('/').filter(Boolean).pop() ?? '']) {
    const hex = /([0-9a-f]{32})$/i.exec(candidate.replace(/-/g, ''))?.[1];
    if (hex) return hex.toLowerCase();
  }
  return undefined;
}

/** A path as a relative URL (each segment percent-encoded): how the import names a Notion page or file. */
export const encodePath = (path: string) =>
  path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
