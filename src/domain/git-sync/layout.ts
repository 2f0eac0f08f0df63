/**
 * Where a synced space's entities sit as files: the paths an export writes (lib/git-layout
 * planPaths — recorded paths kept, new ones from slugs), as a ContentLayout. Exports write
 * relative links with it; in a synced space, markdown read and written through the API uses it
 * too (change requests' links, `Page.markdown`), so `../install.md` means the file the
 * repository has, not the slug path quire would choose. A space never synced keeps the slug layout.
 */
import { planPaths, type ExportNode } from '../../lib/git-layout/index.js';
import { ContentLayout } from '../../lib/markdown/index.js';
import type { Entry } from '../versions/revisions/entries.js';
import type { BlobRecord } from './mapping.js';

export type PlannedLayout = { layout: ContentLayout; paths: Map<string, string>; nodes: ExportNode[] };

type LayoutEntry = Pick<Entry, 'entityId' | 'kind' | 'parentId' | 'position' | 'slug' | 'type' | 'title'> & { data: unknown };

/** A link page's URL (SUMMARY.md lists it). */
export const linkUrl = (entry: Pick<LayoutEntry, 'data'>) => String(((entry.data as Record<string, unknown>).target as { url?: string } | undefined)?.url ?? '');

/** The plain (slug) layout of entries. */
export function slugLayout(entries: readonly LayoutEntry[]): ContentLayout {
  return new ContentLayout(
    entries.filter((e) => e.kind === 'page').map((p) => ({ id: p.entityId, parentId: p.parentId, slug: p.slug, type: p.type, position: p.position })),
    entries.filter((e) => e.kind === 'file').map((f) => ({ id: f.entityId, name: f.title })),
    entries.filter((e) => e.kind === 'reusable-content').map((r) => ({ id: r.entityId, title: r.title })),
  );
}

/**
 * `records`: the space's blob map (mapping.ts). `taken`: paths of the tree quire does not own
 * (an export knows them; a read does not, and plans as if none). `readme`: `.gitbook.yaml`'s, else
 * where the first page was synced, else `README.md`.
 */
export function plannedLayout(entries: readonly LayoutEntry[], records: ReadonlyMap<string, BlobRecord>, options: { taken?: ReadonlySet<string>; readme?: string } = {}): PlannedLayout {
  const nodes: ExportNode[] = entries.map((e) => {
    const record = records.get(e.entityId);
    return {
      id: e.entityId,
      kind: e.kind,
      parentId: e.parentId,
      position: e.position,
      slug: e.slug,
      type: e.type,
      title: e.title,
      ...(e.kind === 'file' ? { name: e.title } : {}),
      ...(e.kind === 'page' && e.type === 'link' ? { href: linkUrl(e) } : {}),
      ...(record ? { recordedPath: record.path, ...(e.kind === 'page' ? { recordedParentId: record.parentId } : {}) } : {}),
    };
  });
  const plain = slugLayout(entries);
  const readme = options.readme ?? (plain.rootPage && records.get(plain.rootPage)?.path) ?? 'README.md';
  const paths = planPaths(nodes, options.taken ?? new Set(), readme);
  const pick = (kind: Entry['kind']) => new Map(entries.filter((e) => e.kind === kind && paths.has(e.entityId)).map((e) => [e.entityId, paths.get(e.entityId)!] as const));
  const layout = new ContentLayout(
    entries.filter((e) => e.kind === 'page').map((p) => ({ id: p.entityId, parentId: p.parentId, slug: p.slug, type: p.type, position: p.position })),
    entries.filter((e) => e.kind === 'file').map((f) => ({ id: f.entityId, name: f.title })),
    entries.filter((e) => e.kind === 'reusable-content').map((r) => ({ id: r.entityId, title: r.title })),
    { pages: pick('page'), files: pick('file'), reusableContents: pick('reusable-content') },
  );
  return { layout, paths, nodes };
}

/** The layout links of a space's content follow: the synced one when the space has a blob map. */
export const contentLayoutOf = (entries: readonly LayoutEntry[], records: ReadonlyMap<string, BlobRecord>): ContentLayout =>
  records.size ? plannedLayout(entries, records).layout : slugLayout(entries);
