/**
 * The content of a change request while a batch of changes is applied to it: reads go to the
 * head revision (a few rows per change: the page, its siblings, its ancestors), writes stay here
 * until the batch commits as one revision.
 */
import { loadMapping, type BlobRecord } from '../../git-sync/mapping.js';
import { Prisma } from '../../../generated/prisma/client.js';

const { sql } = Prisma;
import { versionOf, type EntityVersion, type EntityWrite } from '../revisions/commit.js';
import type { EntityKind, PageEntry } from '../revisions/entries.js';
import { childPages, entityIn, readEntries } from '../revisions/read.js';
import type { RevisionScope } from '../revisions/scope.js';
import { bySiblingOrder } from '../revisions/tree.js';

/** A page as the batch sees it. */
export type WorkingPage = EntityVersion & { entityId: string };

export class Workspace {
  private readonly loaded = new Map<string, WorkingPage | null>();
  private readonly written = new Map<string, { kind: EntityKind; version: EntityVersion | null }>();

  constructor(
    private readonly tx: Prisma.TransactionClient,
    readonly head: RevisionScope,
  ) {}

  /** Where the space's entities sit in its git repository (empty: never synced): links follow it. */
  gitMapping(): Promise<Map<string, BlobRecord>> {
    return loadMapping(this.tx, this.head.spaceId).then((m) => m.byEntity);
  }

  private remember(entry: PageEntry): WorkingPage {
    const page: WorkingPage = { ...versionOf({ ...entry, data: entry.data as Record<string, unknown> }), entityId: entry.entityId };
    if (!this.loaded.has(entry.entityId)) this.loaded.set(entry.entityId, page);
    return page;
  }

  /** The page as it stands in the batch (null: absent or deleted). */
  async page(id: string): Promise<WorkingPage | null> {
    const write = this.written.get(id);
    if (write) return write.version && { ...write.version, entityId: id };
    if (!this.loaded.has(id)) {
      const entry = (await entityIn(this.tx, this.head, 'page', id)) as PageEntry | null;
      this.loaded.set(id, entry && this.remember(entry));
    }
    return this.loaded.get(id) ?? null;
  }

  /** A file or reusable content as it stands in the batch (null: absent or deleted). */
  async entity(kind: Exclude<EntityKind, 'page'>, id: string): Promise<(EntityVersion & { entityId: string }) | null> {
    const write = this.written.get(id);
    if (write) return write.kind === kind && write.version ? { ...write.version, entityId: id } : null;
    const entry = await entityIn(this.tx, this.head, kind, id);
    return entry && { ...versionOf({ ...entry, data: entry.data as Record<string, unknown> }), entityId: id };
  }

  /** The pages under `parentId` (null: the top level) in sibling order. */
  async children(parentId: string | null): Promise<WorkingPage[]> {
    return this.stillUnder((await childPages(this.tx, this.head, [parentId])) as PageEntry[], parentId);
  }

  /** Pages of the batch under `parentId`, as they stand now (stored rows the batch rewrote left out). */
  private stillUnder(stored: PageEntry[], parentId: string | null): WorkingPage[] {
    const pages = stored.filter((e) => !this.written.has(e.entityId)).map((e) => this.remember(e));
    for (const [id, write] of this.written) {
      if (write.kind === 'page' && write.version && write.version.parentId === parentId) pages.push({ ...write.version, entityId: id });
    }
    return pages.sort((a, b) => bySiblingOrder(a as never, b as never));
  }

  /** Whether a page under `parentId` other than `self` has `slug` (reads only pages with that slug). */
  async slugTaken(parentId: string | null, slug: string, self: string): Promise<boolean> {
    const under = parentId === null ? sql`e."parentId" IS NULL` : sql`e."parentId" = ${parentId}`;
    const stored = await readEntries<PageEntry>(this.tx, this.head, [sql`e."kind" = 'page'`, under, sql`e."slug" = ${slug}`]);
    return this.stillUnder(stored, parentId).some((p) => p.entityId !== self && p.slug === slug);
  }

  /**
   * The pages at indexes `at - 1` and `at` under `parentId` (without `self`), or the last one when
   * `at` is undefined: what a position between them needs. Reads at most `at + 1` stored pages
   * (plus those the batch rewrote), never every sibling.
   */
  async neighbours(parentId: string | null, at: number | undefined, self: string): Promise<[WorkingPage | undefined, WorkingPage | undefined]> {
    const under = parentId === null ? sql`e."parentId" IS NULL` : sql`e."parentId" = ${parentId}`;
    const order = sql`e."position" COLLATE "C" ${Prisma.raw(at === undefined ? 'DESC' : 'ASC')}, e."entityId" ${Prisma.raw(at === undefined ? 'DESC' : 'ASC')}`;
    const limit = (at === undefined ? 1 : at + 1) + this.written.size + 1;
    const stored = await readEntries<PageEntry>(this.tx, this.head, [sql`e."kind" = 'page'`, under], { orderBy: order, limit });
    const siblings = this.stillUnder(stored, parentId).filter((p) => p.entityId !== self);
    if (at === undefined) return [siblings[siblings.length - 1], undefined];
    const index = Math.min(at, siblings.length);
    return [siblings[index - 1], siblings[index]];
  }

  /** Every page under `id`, deepest last. */
  async descendants(id: string): Promise<WorkingPage[]> {
    const out: WorkingPage[] = [];
    for (let level = [id]; level.length; ) {
      const next = (await Promise.all(level.map((p) => this.children(p)))).flat();
      out.push(...next);
      level = next.map((p) => p.entityId);
    }
    return out;
  }

  /** Whether `id` is `ancestorId` or below it. */
  async isWithin(id: string | null, ancestorId: string): Promise<boolean> {
    const seen = new Set<string>();
    for (let current = id; current && !seen.has(current); current = (await this.page(current))?.parentId ?? null) {
      if (current === ancestorId) return true;
      seen.add(current);
    }
    return false;
  }

  /**
   * Every entity of a kind as the batch leaves it (one statement: the head's, the batch's writes
   * over them). For the whole page tree, which resolving a batch's links needs.
   */
  async allOfKind(kind: EntityKind): Promise<(EntityVersion & { entityId: string })[]> {
    const stored = (await readEntries(this.tx, this.head, [sql`e."kind" = ${kind}`])).filter((e) => !this.written.has(e.entityId));
    const out = stored.map((e) => ({ ...versionOf({ ...e, data: e.data as Record<string, unknown> }), entityId: e.entityId }));
    for (const [id, write] of this.written) if (write.kind === kind && write.version) out.push({ ...write.version, entityId: id });
    return out;
  }

  write(kind: EntityKind, id: string, version: EntityVersion | null): void {
    this.written.set(id, { kind, version: version && versionOf(version) });
  }

  /** What the batch changed, for commitRevision. */
  writes(): EntityWrite[] {
    return [...this.written].map(([entityId, w]) => ({ kind: w.kind, entityId, version: w.version }));
  }
}
