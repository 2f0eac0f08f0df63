/** Paths inside an archive, resolved the way page links are: with URL semantics. */

const BASE = 'http://archive.invalid/';

/**
 * `href` (a relative link, percent-encoded or not) resolved against the file at `from` (both
 * archive paths, no leading slash); `..` stops at the archive's root. Undefined for an absolute
 * URL or a link to the page itself (`#anchor`, empty).
 */
export function resolveInArchive(from: string, href: string): string | undefined {
  const target = href.trim();
  if (target === '' || target.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(target, BASE + from);
  } catch {
    return undefined;
  }
  const path = url.pathname.slice(1);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export const extensionOf = (path: string) => {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};
