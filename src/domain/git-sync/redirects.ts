/**
 * The site redirects a git import writes (publishing/sites/structure/redirects.ts writeSpaceRedirects), in
 * the import's transaction: `.gitbook.yaml`'s `redirects` (an old path → the page file it now
 * is) replace any redirect of that source; and a page the import moved or renamed keeps its old
 * URL working — a redirect from its old path, unless one of that source exists already.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { writeSpaceRedirects } from '../publishing/sites/structure/redirects.js';

type Tx = Prisma.TransactionClient;
type Versioned = { kind: string; version: { parentId: string | null; slug: string; type: string } };

/** Each page's URL path in the space (its slugs from the top), from a whole-state side. */
export function slugPaths(side: ReadonlyMap<string, Versioned>): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (id: string, seen = new Set<string>()): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const entry = side.get(id);
    if (!entry || entry.kind !== 'page' || seen.has(id)) return '';
    seen.add(id);
    const parent = entry.version.parentId ? pathOf(entry.version.parentId, seen) : '';
    const path = [parent, entry.version.slug].filter(Boolean).join('/');
    paths.set(id, path);
    return path;
  };
  for (const [id, entry] of side) if (entry.kind === 'page') pathOf(id);
  return paths;
}

/** Document pages whose path changed between `before` and `after` (both still there): their old path. */
export function movedPages(before: ReadonlyMap<string, Versioned>, after: ReadonlyMap<string, Versioned>): { path: string; pageId: string }[] {
  const was = slugPaths(before);
  const now = slugPaths(after);
  const out: { path: string; pageId: string }[] = [];
  for (const [id, entry] of after) {
    if (entry.kind !== 'page' || entry.version.type !== 'document') continue;
    const old = was.get(id);
    if (old && now.get(id) !== old) out.push({ path: old, pageId: id });
  }
  return out;
}

/**
 * Writes the redirects of an import: `configured` (from `.gitbook.yaml`: source path → page file),
 * resolved through `pageIdByFile`; `moved`, the pages whose path the import changed. Answers
 * warnings for entries that cannot be written (a target that is not a page, a source that is not
 * a valid redirect path).
 */
export async function writeSyncRedirects(
  tx: Tx,
  actorId: string | null,
  spaceId: string,
  configured: Readonly<Record<string, string>>,
  pageIdByFile: ReadonlyMap<string, string>,
  moved: readonly { path: string; pageId: string }[],
): Promise<string[]> {
  const entries = [
    ...Object.entries(configured).flatMap(([from, to]) => {
      const pageId = pageIdByFile.get(to);
      return pageId ? [{ path: from.replace(/\.md$/i, ''), pageId, replace: true }] : [];
    }),
    ...moved.map((m) => ({ ...m, replace: false })),
  ];
  const { skipped } = await writeSpaceRedirects(tx, actorId, spaceId, entries);
  return skipped.map((path) => `.gitbook.yaml: the redirect of ${path} is not a path a site can redirect; it is not written.`);
}
