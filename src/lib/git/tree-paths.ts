/**
 * The names a tree of the repository may hold. A name with `/`, `..`, `.` or `.git` (any case)
 * could make a path escape its folder or reach git's own files once written to a disk, so a tree
 * holding one is refused, and so is a path quire would write with one.
 */
import { unsafeTree } from './errors.js';

export const SYMLINK_MODE = '120000';
export const SUBMODULE_MODE = '160000';
export const TREE_MODE = '040000';

/** Why `name` cannot be an entry of a tree, or null when it can. */
export function unsafeNameReason(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return 'is not a valid file name';
  if (name.includes('/') || name.includes('\0')) return 'has a slash in a file name';
  if (name.toLowerCase() === '.git') return 'is inside a .git folder';
  return null;
}

/** The segments of a project-relative path quire writes, each checked. */
export function checkedSegments(path: string): string[] {
  if (path.startsWith('/')) throw unsafeTree(path, 'is an absolute path');
  const segments = path.split('/');
  for (const segment of segments) {
    const reason = unsafeNameReason(segment);
    if (reason) throw unsafeTree(path, reason);
  }
  return segments;
}

/** The key two paths share when a case-insensitive file system would see one file. */
export const foldedPath = (path: string) => path.normalize('NFC').toLowerCase();
