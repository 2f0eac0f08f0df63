/** A revision's files and reusable contents. */
import { signingSecret } from '../../domain/kernel/signing-secret.js';
import { fileData, type Entry } from '../../domain/versions/revisions/entries.js';
import { countEntities, entitiesPage } from '../../domain/versions/revisions/lists.js';
import { entitiesIn, entitiesOfKind, entityIn } from '../../domain/versions/revisions/read.js';
import { revisionScope } from '../../domain/versions/revisions/load.js';
import type { RevisionScope } from '../../domain/versions/revisions/scope.js';
import { signFileToken } from '../../domain/versions/files/download-link.js';
import { linksAt } from '../../http/paths.js';
import { reusableContentMarkdown } from '../../domain/versions/content-links/markdown-refs.js';
import { builder } from '../builder.js';
import { revisionNodeId } from '../node-loaders.js';
import { pageConnection } from '../connection.js';
import type { Context } from '../context.js';
import { RevisionRef } from './revision.js';
import { MarkdownRefsEnum } from './page.js';

/** An entity as resolvers pass it: its entry and the revision it was read from. */
export type EntityShape = { entry: Entry; scope: RevisionScope };

/** A signed, expiring URL of the file's bytes (see files/download-link.ts). */
export async function downloadUrl(ctx: Context, entry: Entry): Promise<string> {
  const data = fileData(entry);
  const claims = { key: data.storageKey, name: entry.title, type: data.contentType, userId: ctx.viewer.userId, spaceId: entry.spaceId };
  const signer = { secret: await signingSecret(ctx.db, ctx.config.secret), issuer: ctx.config.publicUrl };
  return linksAt(ctx.config.publicUrl).file(await signFileToken(signer, claims));
}

/** Some files or reusable contents of a revision, in the order of `ids` (absent ones left out). */
export async function entitiesOfRevision(ctx: Context, revisionId: string, kind: 'file' | 'reusable-content', ids: readonly string[]): Promise<EntityShape[]> {
  if (!ids.length) return [];
  const scope = await revisionScope(ctx.db, revisionId);
  const found = new Map((await entitiesIn(ctx.db, scope, kind, ids)).map((e) => [e.entityId, e]));
  return ids.flatMap((id) => (found.has(id) ? [{ entry: found.get(id)!, scope }] : []));
}

const Dimensions = builder.simpleObject('FileDimensions', { description: 'The size in pixels of an image file.', fields: (t) => ({ width: t.int({ description: 'Its width, in pixels.' }), height: t.int({ description: 'Its height, in pixels.' }) }) });

export const RevisionFileRef = builder.objectRef<EntityShape>('RevisionFile').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'A file of a revision (an image or an attachment).',
  fields: (t) => ({
    id: t.id({ description: 'Its ID in the space: the same in every revision that has the file.', resolve: (f) => f.entry.entityId }),
    nodeId: t.id({ description: 'Its node ID, for `node(id)`: this one as it is in this revision.', resolve: (f) => revisionNodeId(f.scope.id, f.entry.entityId) }),
    name: t.string({ description: 'Its file name.', resolve: (f) => f.entry.title }),
    contentType: t.string({ description: 'Its MIME type (e.g. `image/png`).', resolve: (f) => fileData(f.entry).contentType }),
    size: t.int({ description: 'Bytes.', resolve: (f) => fileData(f.entry).size }),
    dimensions: t.field({ type: Dimensions, nullable: true, description: 'Images: read from the file.', resolve: (f) => fileData(f.entry).dimensions ?? null }),
    downloadURL: t.string({ description: 'Signed URL of the bytes, valid for an hour.', resolve: (f, _a, ctx) => downloadUrl(ctx, f.entry) }),
  }),
});

export const ReusableContentRef = builder.objectRef<EntityShape>('ReusableContent').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'Content written once and included in pages.',
  fields: (t) => ({
    id: t.id({ description: 'Its ID in the space: the same in every revision that has it.', resolve: (r) => r.entry.entityId }),
    nodeId: t.id({ description: 'Its node ID, for `node(id)`: this one as it is in this revision.', resolve: (r) => revisionNodeId(r.scope.id, r.entry.entityId) }),
    title: t.string({ description: 'Its title.', resolve: (r) => r.entry.title }),
    documentId: t.string({ description: 'ID of its body; the same body has the same ID in every revision; null when it has none.', nullable: true, resolve: (r) => r.entry.documentId }),
    document: t.field({ description: 'Its body as a JSON document; null when it has none.', type: 'JSON', nullable: true, resolve: (r, _a, ctx) => (r.entry.documentId ? ctx.loaders.document.load(r.entry.documentId) : null) }),
    markdown: t.string({
      nullable: true,
      description:
        'The body as markdown. Links and includes are written as `refs` says: relative to its own file `.gitbook/includes/<slug>.md` in the git layout (default), or stable `/pages/<id>`, `/files/<id>`, `/reusable-contents/<id>`.',
      args: { refs: t.arg({ description: 'How links and includes are written: `relative` (the default) or `stable`.', type: MarkdownRefsEnum, required: false, defaultValue: 'relative' }) },
      resolve: async (r, { refs }, ctx) => {
        const document = r.entry.documentId ? await ctx.loaders.document.load(r.entry.documentId) : null;
        return document && reusableContentMarkdown(ctx.loaders, r.scope.id, r.entry.entityId, document, refs ?? 'relative');
      },
    }),
  }),
});

const all = async (ctx: Context, scope: RevisionScope, kind: Entry['kind']) =>
  (await entitiesOfKind(ctx.db, scope, kind)).map((entry) => ({ entry, scope }));

builder.objectFields(RevisionRef, (t) => ({
  files: t.connection({
    type: RevisionFileRef,
    description: 'Files of the revision, by ID.',
    resolve: async (r, args, ctx) => {
      const page = await entitiesPage(ctx.db, r, 'file', args);
      return pageConnection({ ...page, rows: page.rows.map((entry) => ({ entry, scope: r as RevisionScope })), cursorOf: (f) => page.cursorOf(f.entry) }, () => countEntities(ctx.db, r, 'file'));
    },
  }),
  allFiles: t.field({ type: [RevisionFileRef], description: 'Every file of the revision, by ID.', resolve: (r, _a, ctx) => all(ctx, r, 'file') }),
  file: t.field({ description: 'A file of the revision by ID; null if it has none of that ID.',
    type: RevisionFileRef,
    nullable: true,
    args: { id: t.arg.id({ description: "The file's ID.", required: true }) },
    resolve: async (r, { id }, ctx) => {
      const entry = await entityIn(ctx.db, r, 'file', String(id));
      return entry && { entry, scope: r };
    },
  }),
  reusableContents: t.field({ type: [ReusableContentRef], description: 'Every reusable content of the revision, by ID.', resolve: (r, _a, ctx) => all(ctx, r, 'reusable-content') }),
  reusableContent: t.field({ description: 'A reusable content of the revision by ID; null if it has none of that ID.',
    type: ReusableContentRef,
    nullable: true,
    args: { id: t.arg.id({ description: "The reusable content's ID.", required: true }) },
    resolve: async (r, { id }, ctx) => {
      const entry = await entityIn(ctx.db, r, 'reusable-content', String(id));
      return entry && { entry, scope: r };
    },
  }),
}));
