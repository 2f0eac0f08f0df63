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
 */
export type LayoutPage = { id: string; parentId: string | null; slug: string; type: string; position: string };
export type LayoutFile = { id: string; name: string };

export const ASSETS_FOLDER = '.gitbook/assets/';

/** Fractional positions compare byte-wise; ties fall back to the ID (as revisions/tree.ts). */
const bySiblingOrder = (a: LayoutPage, b: LayoutPage) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** `name`, or `stem (n).ext` for the n-th other file of that name. */
const numbered = (name: string, n: number) => {
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

export class ContentLayout {
  private readonly paths = new Map<string, string>();
  private readonly files = new Map<string, string>();
  private readonly bySlugPath = new Map<string, string>();
  private readonly byAsset = new Map<string, string>();
  private readonly hasChildren = new Set<string>();
  private readonly types = new Map<string, string>();
  readonly rootPage: string | undefined;

  constructor(pages: readonly LayoutPage[], files: readonly LayoutFile[] = []) {
    const byParent = new Map<string | null, LayoutPage[]>();
    for (const page of pages) {
      const list = byParent.get(page.parentId) ?? [];
      list.push(page);
      byParent.set(page.parentId, list);
    }
    for (const list of byParent.values()) list.sort(bySiblingOrder);
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
    const top = byParent.get(null) ?? [];
    this.rootPage = top.flatMap((p) => (p.type === 'group' ? (byParent.get(p.id) ?? []) : [p])).find((p) => p.type === 'document' && this.paths.has(p.id))?.id;

    const seen = new Map<string, number>();
    for (const file of [...files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      const name = file.name.replace(/[/\\]/g, '_') || 'file';
      let n = seen.get(name) ?? 0;
      let asset = `${ASSETS_FOLDER}${numbered(name, n)}`;
      while (this.byAsset.has(asset)) asset = `${ASSETS_FOLDER}${numbered(name, ++n)}`;
      seen.set(name, n + 1);
      this.files.set(file.id, asset);
      this.byAsset.set(asset, file.id);
    }
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
    const path = this.paths.get(id);
    if (path === undefined) return undefined;
    if (id === this.rootPage) return 'README.md';
    if (this.types.get(id) === 'group') return `${path}/`;
    return this.hasChildren.has(id) ? `${path}/README.md` : `${path}.md`;
  }

  /** The folder that links in the page's markdown are relative to. */
  pageFolder(id: string): string {
    return folderOf(this.pageFile(id) ?? '');
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
    if (/^readme\.md$/i.test(trimmed)) return this.rootPage;
    const readme = /^(.*)\/readme\.md$/i.exec(trimmed);
    if (readme) return this.bySlugPath.get(readme[1]!);
    if (/\.md$/i.test(trimmed)) return this.bySlugPath.get(trimmed.slice(0, -3)) ?? this.bySlugPath.get(trimmed);
    return this.bySlugPath.get(trimmed);
  }
}
