/**
 * What a change request changes (API `GET …/changes`): for each page, file and reusable content
 * its own rows touch, compared with the space revision it is based on — created, deleted, moved,
 * edited (with the attributes before and after). Reads only the request's own rows and the base
 * versions of the same entities.
 */
import { isDeepStrictEqual } from 'node:util';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { fileData, pageData, type Entry } from '../revisions/entries.js';
import { pathsOf } from '../revisions/paths.js';
import { readEntries } from '../revisions/read.js';
import type { RevisionScope } from '../revisions/scope.js';
import { atSeq } from '../revisions/visible.js';
import type { EntityVersion } from '../revisions/commit.js';
import { sameVersion } from '../revisions/same-version.js';

type Side<T> = { before?: T; after?: T };
export type SemanticChange = Record<string, unknown> & { type: string };

/** The entities a change request revision has rows of, with their base versions (null: absent). */
async function touched(db: Queryable, head: RevisionScope, base: RevisionScope, given?: readonly string[]) {
  const rows = given
    ? given.map((entityId) => ({ entityId }))
    : await db.$queryRaw<{ entityId: string }[]>(Prisma.sql`SELECT e."entityId" FROM "ContentEntry" e WHERE e."lineId" = ${head.lineId} AND ${atSeq('e', head.seq)} ORDER BY e."entityId"`);
  const ids = rows.map((r) => r.entityId);
  if (!ids.length) return [];
  const inScope = async (scope: RevisionScope) => new Map((await readEntries(db, scope, [Prisma.sql`e."entityId" = ANY(${ids}::text[])`])).map((e) => [e.entityId, e]));
  const [before, after] = await Promise.all([inScope(base), inScope(head)]);
  return ids.map((id) => ({ id, before: before.get(id) ?? null, after: after.get(id) ?? null }));
}

function attribute<T>(before: T | undefined, after: T | undefined, out: Record<string, Side<T>>, name: string): void {
  if (!isDeepStrictEqual(before, after)) out[name] = { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
}

function pageAttributes(before: Entry, after: Entry): Record<string, Side<unknown>> {
  const out: Record<string, Side<unknown>> = {};
  attribute(before.title, after.title, out, 'title');
  attribute(before.slug, after.slug, out, 'slug');
  attribute(pageData(before).emoji, pageData(after).emoji, out, 'emoji');
  if (after.type === 'document') {
    attribute(pageData(before).description, pageData(after).description, out, 'description');
    attribute(before.documentId ?? undefined, after.documentId ?? undefined, out, 'document');
  }
  if (after.type === 'link') attribute(pageData(before).target, pageData(after).target, out, 'target');
  return out;
}

/**
 * `ids`: the entities to compare (revisions/revision-changes.ts names those a revision touched
 * since its parent); by default those the change request revision `head` has rows of.
 */
export async function changeRequestChanges(db: Queryable, head: RevisionScope, base: RevisionScope, limit: number, fileUrl: (file: Entry) => Promise<string>, ids?: readonly string[]) {
  const entities = (await touched(db, head, base, ids)).filter((t) => !sameVersion(t.before as EntityVersion | null, t.after as EntityVersion | null));
  const pages = entities.flatMap((t) => [t.before, t.after]).filter((e): e is Entry => e?.kind === 'page');
  const [afterPaths, beforePaths] = await Promise.all([
    pathsOf(db, head, pages.filter((p) => entities.some((t) => t.after === p))),
    pathsOf(db, base, pages.filter((p) => entities.some((t) => t.before === p))),
  ]);
  const page = (e: Entry, paths: Map<string, string>) => ({ id: e.entityId, type: e.type, title: e.title, path: paths.get(e.entityId) ?? e.slug });
  const file = async (e: Entry) => ({ id: e.entityId, name: e.title, contentType: fileData(e).contentType, downloadURL: await fileUrl(e) });
  const content = (e: Entry) => ({ id: e.entityId, title: e.title, ...(e.documentId ? { document: e.documentId } : {}) });
  const changes: SemanticChange[] = [];
  for (const { before, after } of entities) {
    const kind = (after ?? before)!.kind;
    if (kind === 'page') {
      if (!before) changes.push({ type: 'page_created', page: page(after!, afterPaths) });
      else if (!after) changes.push({ type: 'page_deleted', page: page(before, beforePaths) });
      else {
        if (before.parentId !== after.parentId) changes.push({ type: 'page_moved', page: page(after, afterPaths), parent: await parents(db, head, base, before, after) });
        const attributes = pageAttributes(before, after);
        if (Object.keys(attributes).length) changes.push({ type: 'page_edited', page: page(after, afterPaths), attributes });
      }
    } else if (kind === 'file') {
      if (!before) changes.push({ type: 'file_created', file: await file(after!) });
      else if (!after) changes.push({ type: 'file_deleted', file: await file(before) });
      else {
        const attributes: Record<string, Side<unknown>> = {};
        attribute(before.title, after.title, attributes, 'name');
        attribute(fileData(before).contentType, fileData(after).contentType, attributes, 'contentType');
        attribute(fileData(before).size, fileData(after).size, attributes, 'size');
        if (Object.keys(attributes).length) changes.push({ type: 'file_edited', file: await file(after), attributes });
      }
    } else {
      if (!before) changes.push({ type: 'reusable_content_created', reusableContent: content(after!) });
      else if (!after) changes.push({ type: 'reusable_content_deleted', reusableContent: content(before) });
      else {
        const attributes: Record<string, Side<unknown>> = {};
        attribute(before.title, after.title, attributes, 'title');
        attribute(before.documentId ?? undefined, after.documentId ?? undefined, attributes, 'document');
        if (Object.keys(attributes).length) changes.push({ type: 'reusable_content_edited', reusableContent: content(after), attributes });
      }
    }
  }
  return { changes: changes.slice(0, limit), ...(changes.length > limit ? { more: changes.length - limit } : {}) };
}

/** The parent before and after a move (absent at the top level). */
async function parents(db: Queryable, head: RevisionScope, base: RevisionScope, before: Entry, after: Entry) {
  const one = async (scope: RevisionScope, id: string | null) => {
    if (!id) return undefined;
    const [parent] = await readEntries(db, scope, [Prisma.sql`e."kind" = 'page'`, Prisma.sql`e."entityId" = ${id}`]);
    if (!parent) return undefined;
    const paths = await pathsOf(db, scope, [parent]);
    return { id: parent.entityId, type: parent.type, title: parent.title, path: paths.get(parent.entityId) };
  };
  const [from, to] = await Promise.all([one(base, before.parentId), one(head, after.parentId)]);
  return { ...(from ? { before: from } : {}), ...(to ? { after: to } : {}) };
}
