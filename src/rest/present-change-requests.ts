/** GraphQL fragments and documented JSON shapes of change requests, revisions and pages. */
import { presentUser, USER_FRAGMENT } from './present.js';

type Obj = Record<string, any>;

const optional = (fields: Obj) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));

export const CHANGE_REQUEST_FRAGMENT = /* GraphQL */ `
  fragment RestChangeRequest on ChangeRequest {
    id number status subject description createdAt updatedAt mergedAt spaceId
    revisionId revisionInitialId revisionMergedAncestorId revisionMergedId comments outdated
    createdBy { ...RestUser } mergedBy { ...RestUser } urls { app location }
  }
  ${USER_FRAGMENT}
`;

export const presentChangeRequest = (r: Obj) => ({
  object: 'change-request',
  id: r.id,
  number: r.number,
  status: r.status,
  subject: r.subject,
  ...optional({ description: r.description }),
  createdBy: presentUser(r.createdBy),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  ...optional({ mergedBy: r.mergedBy && presentUser(r.mergedBy), mergedAt: r.mergedAt }),
  space: r.spaceId,
  revision: r.revisionId,
  revisionInitial: r.revisionInitialId,
  ...optional({ revisionMergedAncestor: r.revisionMergedAncestorId, revisionMerged: r.revisionMergedId }),
  comments: r.comments,
  outdated: r.outdated,
  urls: r.urls,
});

const PAGE_FIELDS = 'id type title slug path parentId description emoji icon hidden layout target createdAt updatedAt documentId urls { app location } git { oid path }';

/** A page and, flat in tree order, its descendants: REST nests them again (see nestPages). */
export const PAGE_FRAGMENT = `fragment RestPage on Page { ${PAGE_FIELDS} descendants { ${PAGE_FIELDS} } }`;
export const PAGE_LIST_FRAGMENT = `fragment RestPageItem on Page { ${PAGE_FIELDS} }`;

/** Flat pages (tree order) as the documented tree: each page's `pages` are its children. */
export function nestPages(flat: Obj[], rootParentId: string | null): Obj[] {
  const byParent = new Map<string | null, Obj[]>();
  for (const page of flat) byParent.set(page.parentId ?? null, [...(byParent.get(page.parentId ?? null) ?? []), page]);
  const build = (parentId: string | null): Obj[] => (byParent.get(parentId) ?? []).map((p) => ({ ...p, pages: build(p.id) }));
  return build(rootParentId);
}

export function presentPage(p: Obj, body?: { document?: unknown; markdown?: string | null }): Obj {
  const base = {
    id: p.id,
    title: p.title,
    ...optional({ emoji: p.emoji, icon: p.icon }),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
  const children = (p.pages ?? []).map((c: Obj) => presentPage(c));
  if (p.type === 'group') return { ...base, kind: 'group', type: 'group', slug: p.slug, path: p.path, ...optional({ hidden: p.hidden || null }), pages: children };
  if (p.type === 'link') return { ...base, kind: 'link', type: 'link', target: p.target ?? { kind: 'url', url: '' }, ...optional({ hidden: p.hidden || null }) };
  return {
    ...base,
    kind: 'sheet',
    type: 'document',
    urls: { app: p.urls.app },
    slug: p.slug,
    path: p.path,
    ...optional({ description: p.description, hidden: p.hidden || null }),
    pages: children,
    layout: p.layout,
    tags: [],
    // `git`: where the page's file is in the last synced commit (`metadata=false` leaves it out).
    ...optional({ documentId: p.documentId, git: p.git }),
    ...(body?.document !== undefined ? { document: body.document } : {}),
    ...(body?.markdown !== undefined && body.markdown !== null ? { markdown: body.markdown } : {}),
  };
}

export const FILE_FRAGMENT = /* GraphQL */ `fragment RestFile on RevisionFile { id name contentType size dimensions { width height } downloadURL git { oid path } }`;

export const presentFile = (f: Obj) => ({
  id: f.id,
  name: f.name,
  contentType: f.contentType,
  downloadURL: f.downloadURL,
  size: f.size,
  ...optional({ dimensions: f.dimensions, git: f.git }),
});

export const REUSABLE_CONTENT_FRAGMENT = /* GraphQL */ `fragment RestReusableContent on ReusableContent { id title documentId git { oid path } }`;

/** The document's body is read separately: `document` is its ID. */
export const presentReusableContent = (r: Obj) => ({ id: r.id, title: r.title, ...optional({ document: r.documentId, git: r.git }) });

export const REVISION_FRAGMENT = /* GraphQL */ `
  fragment RestRevision on Revision {
    id type parents createdAt mergedFromId urls { app location } git { oid message createdByGitBook url ref } allPages { ...RestPageItem }
    allFiles { ...RestFile } reusableContents { ...RestReusableContent }
  }
  ${PAGE_LIST_FRAGMENT}
  ${FILE_FRAGMENT}
  ${REUSABLE_CONTENT_FRAGMENT}
`;

export const presentRevision = (r: Obj, mergedFrom?: Obj) => ({
  object: 'revision',
  id: r.id,
  type: r.type,
  parents: r.parents,
  pages: nestPages(r.allPages, null).map((p) => presentPage(p)),
  files: r.allFiles.map(presentFile),
  reusableContents: r.reusableContents.map(presentReusableContent),
  tags: [],
  createdAt: r.createdAt,
  urls: { app: r.urls.app },
  ...optional({ git: r.git && optional(r.git) }),
  ...(mergedFrom ? { mergedFrom } : {}),
});
