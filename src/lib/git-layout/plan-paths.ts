/**
 * Where an export writes each page, file and reusable content. Recorded paths (from the last sync)
 * are kept, so a repository's files do not move under its users; a page that gained children moves
 * `x.md` → `x/README.md` (and back when it lost them); a page whose parent changed moves into its
 * new parent's folder; new entities get paths from their slugs that collide with nothing.
 */
import { slugOf } from '../documents/slug.js';
import { ASSETS_FOLDER, childrenByParent, firstPage, folderOf, INCLUDES_FOLDER, numbered } from '../markdown/layout.js';
import { isMarkdownPath, isReadmePath } from './names.js';

export type ExportNode = {
  id: string;
  kind: 'page' | 'file' | 'reusable-content';
  parentId: string | null;
  position: string;
  slug: string;
  /** Pages: document, group or link (a link page has no file). */
  type: string;
  title: string;
  /** Link pages: the URL (SUMMARY.md lists it). */
  href?: string;
  /** Files: the file's name. */
  name?: string;
  /** The path recorded at the last sync, root-relative. */
  recordedPath?: string;
  /**
   * The page's parent at the last sync (null: top level). Given, it tells a page moved in quire from
   * a hand-written layout (a page listed under another whose file sits elsewhere), which keeps its file.
   */
  recordedParentId?: string | null;
};

/**
 * Root-relative path of every entity (groups: their folder `a/`; link pages: none). `taken`: every
 * path of the tree that quire does not own (a recorded path is its entity's own even if listed
 * there). `readme`: the first page's file (`.gitbook.yaml`'s `structure.readme`).
 */
export function planPaths(nodes: readonly ExportNode[], taken: ReadonlySet<string>, readme: string): Map<string, string> {
  const claims = new Claims(taken);
  for (const node of nodes) {
    const recorded = safePath(node.recordedPath);
    if (recorded) claims.reserve(recorded, node.id);
  }
  const plan = new Map<string, string>();
  planPages(nodes.filter((n) => n.kind === 'page'), readme, claims, plan);
  const byId = (a: ExportNode, b: ExportNode) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const others = (kind: ExportNode['kind'], folder: string, nameOf: (n: ExportNode) => string) => {
    // The next number to try for a name: thousands of `image.png` stay linear.
    const next = new Map<string, number>();
    for (const node of nodes.filter((n) => n.kind === kind).sort(byId)) {
      const recorded = safePath(node.recordedPath);
      if (recorded && !recorded.endsWith('/') && claims.free(recorded, node.id)) {
        plan.set(node.id, claims.take(recorded, node.id));
        continue;
      }
      const name = nameOf(node);
      let n = next.get(name.toLowerCase()) ?? 0;
      while (!claims.free(`${folder}${numbered(name, n)}`, node.id)) n++;
      next.set(name.toLowerCase(), n + 1);
      plan.set(node.id, claims.take(`${folder}${numbered(name, n)}`, node.id));
    }
  };
  others('file', ASSETS_FOLDER, (n) => (n.name ?? '').replace(/[/\\]/g, '_').replace(/^\.+$/, '') || 'file');
  others('reusable-content', INCLUDES_FOLDER, (n) => `${slugOf(n.title) || 'reusable-content'}.md`);
  return plan;
}

function planPages(pages: ExportNode[], readme: string, claims: Claims, plan: Map<string, string>): void {
  const byParent = childrenByParent(pages);
  const hadChildren = new Set(pages.flatMap((p) => (p.recordedPath && p.recordedParentId ? [p.recordedParentId] : [])));
  const placed = new Set<string>();
  const mark = (parentId: string | null) => {
    for (const page of byParent.get(parentId) ?? []) if (!placed.has(page.id)) (placed.add(page.id), mark(page.id));
  };
  mark(null);
  const root = firstPage(byParent, (id) => placed.has(id));
  const hasChildren = (id: string) => (byParent.get(id)?.length ?? 0) > 0;
  if (root) claims.take(readme, root);

  const visited = new Set<string>();
  /** `folder`: where the parent's children live; `recordedFolder`: where they lived at the last sync. */
  const place = (parentId: string | null, folder: string, recordedFolder: string | undefined) => {
    for (const page of byParent.get(parentId) ?? []) {
      if (visited.has(page.id)) continue;
      visited.add(page.id);
      if (page.type === 'link') continue;
      const path = page.id === root ? readme : pathOf(page, folder, recordedFolder);
      plan.set(page.id, path);
      const recorded = safePath(page.recordedPath);
      place(page.id, page.id === root ? `${folder}${slugOf(page.slug) || 'page'}/` : childFolder(path), recorded && page.id !== root ? childFolder(recorded) : undefined);
    }
  };

  const pathOf = (page: ExportNode, folder: string, recordedFolder: string | undefined): string => {
    const isGroup = page.type === 'group';
    const withChildren = hasChildren(page.id);
    let recorded = safePath(page.recordedPath);
    if (recorded && (isGroup ? !recorded.endsWith('/') : !isMarkdownPath(recorded) || recorded.toLowerCase() === readme.toLowerCase())) recorded = undefined;
    if (recorded) {
      const known = page.recordedParentId !== undefined;
      const readmeForm = !isGroup && isReadmePath(recorded) && recorded.includes('/');
      const had = known ? hadChildren.has(page.id) : readmeForm;
      let candidate = recorded;
      if (!isGroup && withChildren && !had && !readmeForm) candidate = `${recorded.replace(/\.(md|markdown)$/i, '')}/README.md`;
      if (!isGroup && !withChildren && had && readmeForm) candidate = `${folderOf(recorded).slice(0, -1)}.md`;
      const container = containerOf(candidate);
      const parentChanged = known ? page.recordedParentId !== page.parentId : container !== folder;
      // A page already in its new parent's folder stays; one still in its parent's old folder follows it.
      if (!parentChanged || container === folder) {
        if (container !== folder && recordedFolder !== undefined && container === recordedFolder) candidate = folder + candidate.slice(container.length);
        if (claims.free(candidate, page.id)) return claims.take(candidate, page.id);
      }
    }
    const slug = slugOf(page.slug) || 'page';
    const at = (n: number) => {
      const base = `${folder}${n === 1 ? slug : `${slug}-${n}`}`;
      return isGroup ? `${base}/` : withChildren ? `${base}/README.md` : `${base}.md`;
    };
    let n = 1;
    while (!claims.free(at(n), page.id)) n++;
    return claims.take(at(n), page.id);
  };
  place(null, '', '');
}

/** The folder a page's children live in: a group's own, a README's, else `x.md` → `x/`. */
function childFolder(path: string): string {
  if (path.endsWith('/')) return path;
  if (isReadmePath(path)) return folderOf(path);
  return `${path.replace(/\.(md|markdown)$/i, '')}/`;
}

/** The folder holding an entity: `a/b.md` → `a/`, `a/b/README.md` → `a/`, `a/b/` → `a/`. */
function containerOf(path: string): string {
  const own = path.endsWith('/') ? path.slice(0, -1) : isReadmePath(path) && path.includes('/') ? folderOf(path).slice(0, -1) : path;
  return folderOf(own);
}

/** A relative path without `..`, `.`, empty segments, backslashes or a leading `/`; undefined otherwise. */
function safePath(path: string | undefined): string | undefined {
  if (!path || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return undefined;
  const segments = path.replace(/\/$/, '').split('/');
  return segments.some((s) => s === '' || s === '.' || s === '..') ? undefined : path;
}

/**
 * Paths in use, compared ignoring case (git trees on case-insensitive disks): files of the tree
 * quire does not own, recorded paths (their entity's), and paths planned so far. A folder in use
 * (a group's, a README page's) is its own claim.
 */
class Claims {
  private readonly owners = new Map<string, string>();
  private readonly foreign: Set<string>;

  constructor(taken: ReadonlySet<string>) {
    this.foreign = new Set([...taken].map((p) => p.toLowerCase()));
  }

  reserve(path: string, id: string): void {
    for (const key of keysOf(path)) if (!this.owners.has(key)) this.owners.set(key, id);
  }

  free(path: string, id: string): boolean {
    return keysOf(path).every((key) => {
      const owner = this.owners.get(key);
      return owner === undefined ? !this.foreign.has(key) : owner === id;
    });
  }

  take(path: string, id: string): string {
    for (const key of keysOf(path)) this.owners.set(key, id);
    return path;
  }
}

/** A path's claims: itself, and for a README page its folder. */
function keysOf(path: string): string[] {
  const key = path.toLowerCase();
  return isReadmePath(path) && path.includes('/') ? [key, folderOf(key)] : [key];
}
