/**
 * Which files of an archive or repository are pages, and the titles their names give: apart from
 * pages.ts (which reads them, converting HTML with parse5) so that git sync's layout can use the
 * names without loading the converter.
 */
import { baseName, extensionOf } from './archive-path.js';

const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown']);
export const HTML_EXTENSIONS = new Set(['html', 'htm']);

export const hasPageExtension = (path: string) => MARKDOWN_EXTENSIONS.has(extensionOf(path)) || HTML_EXTENSIONS.has(extensionOf(path));

/** A page file of the content; `.gitbook/` holds assets and includes, not pages. */
export const isPagePath = (path: string) => hasPageExtension(path) && !/(^|\/)\.gitbook\//.test(path);

/** `README` or `index` (any case, any page extension): the page of its folder. */
export const isFolderPage = (path: string) => /^(readme|index)$/i.test(stem(baseName(path))) && hasPageExtension(path);

/** `setup-guide.md` → `Setup guide`, `getting_started` → `Getting started`. */
export function titleFromName(name: string): string {
  const words = stem(name).replace(/[-_\s]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
}

const stem = (name: string) => (hasPageExtension(name) ? name.slice(0, name.lastIndexOf('.')) : name);
