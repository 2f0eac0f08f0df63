/** Names a page takes from its file: the slug hint and a title for a file without one. */
import { slugOf } from '../documents/slug.js';
import { baseName } from '../import-readers/zip/archive-path.js';
import { titleFromName } from '../import-readers/zip/page-names.js';

/** `.md` or `.markdown`, any case: the files that can be pages of a repository. */
export const isMarkdownPath = (path: string) => /\.(md|markdown)$/i.test(path);

/** `README.md` (or `index.md`), any case: its folder's page. */
export const isReadmePath = (path: string) => /^(readme|index)\.(md|markdown)$/i.test(baseName(path));

const stem = (name: string) => name.replace(/\.(md|markdown)$/i, '');

/**
 * `install.md` → `install`, `guide/README.md` → `guide`; the root's README has no name of its own:
 * its title's slug, else `readme`.
 */
export function fileSlug(path: string, title?: string): string {
  const parts = path.split('/');
  const name = isReadmePath(path) ? parts.at(-2) : stem(parts.at(-1)!);
  if (name === undefined) return slugOf(title ?? '') || 'readme';
  return slugOf(name) || 'page';
}

/** `guide/setup-guide.md` → `Setup guide`, `guide/README.md` → `Guide`, the root's README → `Introduction`. */
export function fileTitle(path: string): string {
  const parts = path.split('/');
  if (isReadmePath(path) && parts.length === 1) return 'Introduction';
  const name = isReadmePath(path) && parts.length > 1 ? parts.at(-2)! : parts.at(-1)!;
  return titleFromName(name);
}
