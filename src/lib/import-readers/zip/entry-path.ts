/**
 * The names of a zip's entries: refused when unsafe (they could point outside wherever the archive
 * is unpacked), skipped when they are clutter (macOS metadata, dotfiles).
 */
import { ImportError } from '../import-error.js';

// A name in the message, bounded and without control characters.
const shown = (name: string) => JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);

/**
 * The entry's path, normalized (`./` and repeated slashes removed; a directory keeps its trailing
 * `/`). Throws PARSE_ERROR for `..` segments, absolute paths, drive letters, backslashes and NUL.
 */
export function safeEntryPath(name: string): string {
  const unsafe =
    name.includes('\0') ||
    name.includes('\\') ||
    name.startsWith('/') ||
    /^[a-zA-Z]:/.test(name) ||
    name.split('/').includes('..');
  if (unsafe) throw new ImportError('PARSE_ERROR', `The zip archive has an entry with an unsafe path: ${shown(name)}.`);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return '';
  return segments.join('/') + (name.endsWith('/') ? '/' : '');
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Unix symlinks keep their mode in the high 16 bits of the external attributes. */
export function isSymlink(externalFileAttributes: number): boolean {
  return ((externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

export function refuseSymlink(name: string): never {
  throw new ImportError('PARSE_ERROR', `The zip archive has a symbolic link, which imports do not follow: ${shown(name)}.`);
}

/**
 * Entries that are not content: directories, `__MACOSX/` resource forks, and dotfiles or
 * dot-folders (`.git/`, `.DS_Store`) except the platform's own `.gitbook.yaml` and `.gitbook/`.
 */
export function isSkipped(path: string): boolean {
  if (path === '' || path.endsWith('/')) return true;
  return path.split('/').some((segment) => segment === '__MACOSX' || (segment.startsWith('.') && segment !== '.gitbook' && segment !== '.gitbook.yaml'));
}
