/**
 * Where a revision's pages and files sit as markdown files: the git layout of
 * ../shared/reference/git-sync.md, which links read and write in both directions (links.ts
 * `resolveLink`, `relativeRefs`) and git sync uses as its file layout.
 *
 * - The first page (the first document at the top level, or in the first top-level group that has
 *   one) is `README.md`.
 * - A page with child pages is `<path>/README.md`, its children inside `<path>/`; any other page
 *   is `<path>.md`. `<path>` is the page's path in the revision (slugs joined by `/`, groups
 *   included). A group is the folder `<path>/`, with no file of its own.
 * - A file is `.gitbook/assets/<name>`; files of the same name, in ID order, are `<name>`,
 *   `<stem> (1).<ext>`, `<stem> (2).<ext>`…
 * - A reusable content is `.gitbook/includes/<slug>.md`, `<slug>` from its title (`slugOf`,
 *   `reusable-content` when it has no letter or digit); same slugs, in ID order, are `<slug>.md`,
 *   `<slug> (1).md`… Links in its own markdown are relative to `.gitbook/includes/`.
 * - Given paths (GivenPaths: a synced space's, from git-layout/plan-paths.ts) replace all of the
 *   above for the entities they name; the others are computed around them.
 */
import { slugOf } from '../documents/slug.js';

export type LayoutPage = { id: string; parentId: string | null; slug: string; type: string; position: string };
export type LayoutFile = { id: string; name: string };
export type LayoutReusableContent = { id: string; title: string };
/**
 * Paths decided elsewhere (git sync's planned or recorded paths), entity ID → root-relative path:
 * they win over the computed ones, and links resolve to and from them.
 */
export type GivenPaths = {
  pages?: ReadonlyMap<string, string>;
  files?: ReadonlyMap<string, string>;
  reusableContents?: ReadonlyMap<string, string>;
};

export const ASSETS_FOLDER = '.gitbook/assets/';
export const INCLUDES_FOLDER = '.gitbook/includes/';

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Fractional positions compare byte-wise; ties fall back to the ID (as revisions/tree.ts). */
const bySiblingOrder = (a: { id: string; position: string }, b: { id: string; position: string }) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** `name`, or `stem (n).ext` for the n-th other file of that name. */
export const numbered = (name: string, n: number) => {
  if (n === 0) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
};

/** The folder of a file path (`a/b.md` → `a/`, `README.md` → ``). */
export const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

/**
 * `path` (relative, `/`-separated) joined to `folder` and normalized (`.` and `..` removed);
 * undefined when it climbs above the root.
 */
export function joinRelative(folder: string, path: string): string | undefined {
  const out: string[] = [];
  for (const part of `${folder}${path}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/') + (path.endsWith('/') && out.length ? '/' : '');
}

/** The path from folder `from` (`a/b/`) to `to` (`a/c.md` → `../c.md`). */
export function relativePath(from: string, to: string): string {
  const fromParts = from.split('/').filter(Boolean);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  return [...fromParts.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
}

/** Pages by parent (null: the top level), siblings in order. */
export function childrenByParent<T extends { id: string; parentId: string | null; position: string }>(pages: Iterable<T>): Map<string | null, T[]> {
  const byParent = new Map<string | null, T[]>();
  for (const page of pages) {
    const list = byParent.get(page.parentId);
    if (list) list.push(page);
    else byParent.set(page.parentId, [page]);
  }
  for (const list of byParent.values()) list.sort(bySiblingOrder);
  return byParent;
}

/**
 * The first page, written as `README.md`: the first document at the top level, or in the first
 * top-level group that has one. `byParent` lists siblings in order; `placed` says a page is in the tree.
 */
export function firstPage<T extends { id: string; type: string }>(byParent: ReadonlyMap<string | null, readonly T[]>, placed: (id: string) => boolean): string | undefined {
  const top = byParent.get(null) ?? [];
  return top.flatMap((p) => (p.type === 'group' ? (byParent.get(p.id) ?? []) : [p])).find((p) => p.type === 'document' && placed(p.id))?.id;
}

/**
 * The names a link may give a page's given file: the file itself and, for a README, its folder
 * (`a/README.md`, `a`); a leaf without extension (`a/b.md`, `a/b`); a group's folder (`a/` → `a`).
 */
function namesOfPageFile(path: string): string[] {
  const trimmed = path.replace(/\/+$/, '');
  const readme = /^(.*)\/readme\.md$/i.exec(trimmed);
  if (readme) return [trimmed, readme[1]!];
  if (/\.md$/i.test(trimmed)) return [trimmed, trimmed.slice(0, -3)];
  return [trimmed];
}

export class ContentLayout {
  private readonly paths = new Map<string, string>();
  private readonly files = new Map<string, string>();
  private readonly bySlugPath = new Map<string, string>();
  private readonly byAsset = new Map<string, string>();
  private readonly hasChildren = new Set<string>();
  private readonly types = new Map<string, string>();
  private readonly includes = new Map<string, string>();
  private readonly byInclude = new Map<string, string>();
  private readonly givenPages = new Map<string, string>();
  private readonly byGivenPath = new Map<string, string>();
  readonly rootPage: string | undefined;

  /** `given`: paths that replace the computed ones (see GivenPaths). */
  constructor(pages: readonly LayoutPage[], files: readonly LayoutFile[] = [], reusableContents: readonly LayoutReusableContent[] = [], given: GivenPaths = {}) {
    const byParent = childrenByParent(pages);
    // Pages whose parent is absent are left out, as in the revision's tree.
    const place = (parentId: string | null, parentPath: string) => {
      for (const page of byParent.get(parentId) ?? []) {
        if (this.paths.has(page.id)) continue;
        const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
        this.paths.set(page.id, path);
        this.types.set(page.id, page.type);
        if (!this.bySlugPath.has(path)) this.bySlugPath.set(path, page.id);
        if (byParent.get(page.id)?.length) this.hasChildren.add(page.id);
        place(page.id, path);
      }
    };
    place(null, '');
    this.rootPage = firstPage(byParent, (id) => this.paths.has(id));

    for (const [id, path] of given.pages ?? []) {
      if (!this.paths.has(id)) continue;
      this.givenPages.set(id, path);
      for (const name of namesOfPageFile(path)) if (!this.byGivenPath.has(name)) this.byGivenPath.set(name, id);
    }

    const assign = (folder: string, items: { id: string; name: string }[], to: Map<string, string>, from: Map<string, string>, givenPaths: ReadonlyMap<string, string> = new Map()) => {
      const seen = new Map<string, number>();
      const ids = new Set(items.map((item) => item.id));
      for (const [id, path] of givenPaths) {
        if (!ids.has(id)) continue;
        to.set(id, path);
        if (!from.has(path)) from.set(path, id);
      }
      for (const item of items.filter((i) => !givenPaths.has(i.id)).sort(byId)) {
        let n = seen.get(item.name) ?? 0;
        let path = `${folder}${numbered(item.name, n)}`;
        while (from.has(path)) path = `${folder}${numbered(item.name, ++n)}`;
        seen.set(item.name, n + 1);
        to.set(item.id, path);
        from.set(path, item.id);
      }
    };
    assign(ASSETS_FOLDER, files.map((f) => ({ id: f.id, name: f.name.replace(/[/\\]/g, '_') || 'file' })), this.files, this.byAsset, given.files);
    assign(INCLUDES_FOLDER, reusableContents.map((r) => ({ id: r.id, name: `${slugOf(r.title) || 'reusable-content'}.md` })), this.includes, this.byInclude, given.reusableContents);
  }

  hasPage(id: string): boolean {
    return this.paths.has(id);
  }

  hasFile(id: string): boolean {
    return this.files.has(id);
  }

  /** The page's path in the revision (slugs joined by `/`). */
  pagePath(id: string): string | undefined {
    return this.paths.get(id);
  }

  /** The page's markdown file (`README.md`, `a/b.md`, `a/b/README.md`); a group: its folder `a/`. */
  pageFile(id: string): string | undefined {
    const given = this.givenPages.get(id);
    if (given !== undefined) return given;
    const path = this.paths.get(id);
    if (path === undefined) return undefined;
    if (id === this.rootPage) return 'README.md';
    if (this.types.get(id) === 'group') return `${path}/`;
    return this.hasChildren.has(id) ? `${path}/README.md` : `${path}.md`;
  }

  /** The folder that links in the markdown of page or reusable content `id` are relative to. */
  pageFolder(id: string): string {
    return folderOf(this.includes.get(id) ?? this.pageFile(id) ?? '');
  }

  hasReusableContent(id: string): boolean {
    return this.includes.has(id);
  }

  /** A reusable content's file (`.gitbook/includes/<slug>.md`). */
  reusableContentFile(id: string): string | undefined {
    return this.includes.get(id);
  }

  reusableContentAt(path: string): string | undefined {
    return this.byInclude.get(path);
  }

  /** A file's path (`.gitbook/assets/<name>`). */
  fileAsset(id: string): string | undefined {
    return this.files.get(id);
  }

  fileAtAsset(path: string): string | undefined {
    return this.byAsset.get(path);
  }

  /**
   * The page a path names: `README.md` (the first page), `<path>/README.md`, `<path>.md`, or a
   * page path without extension (`<path>`, `<path>/`: a folder's page).
   */
  pageAt(path: string): string | undefined {
    const trimmed = path.replace(/\/+$/, '');
    if (!trimmed) return undefined;
    const given = this.byGivenPath.get(trimmed);
    if (given !== undefined) return given;
    if (/^readme\.md$/i.test(trimmed)) return this.rootPage;
    const readme = /^(.*)\/readme\.md$/i.exec(trimmed);
    if (readme) return this.bySlugPath.get(readme[1]!);
    if (/\.md$/i.test(trimmed)) return this.bySlugPath.get(trimmed.slice(0, -3)) ?? this.bySlugPath.get(trimmed);
    return this.bySlugPath.get(trimmed);
  }
}
