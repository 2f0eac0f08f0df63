/** Writes of a change request's files and reusable contents (pages: change-request-mutations.ts). */
import { createReusableContent, deleteReusableContent, updateReusableContent } from '../../domain/versions/change-requests/reusable-contents.js';
import { uploadFiles } from '../../domain/versions/change-requests/upload-files.js';
import { blobStore } from '../../domain/versions/files/blob-store.js';
import { MAX_FILE_BYTES } from '../../domain/versions/files/file-input.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { entitiesOfRevision, ReusableContentRef, RevisionFileRef } from './revision-content.js';

/** The entities of the change request's new head revision, in the order of `ids`. */
async function fromHead(ctx: Context, changeRequestId: string, kind: 'file' | 'reusable-content', ids: string[]) {
  forgetLoaded(ctx);
  const changeRequest = (await ctx.loaders.changeRequest.load(changeRequestId))!;
  return entitiesOfRevision(ctx, changeRequest.revisionId, kind, ids);
}

builder.mutationFields((t) => ({
  uploadChangeRequestFiles: t.field({
    type: [RevisionFileRef],
    description: `Adds files (a multipart request; at most ${MAX_FILE_BYTES} bytes each, 20 per request) to the change request, as one revision.`,
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      id: t.arg.id({ required: true, description: 'ID or number of the change request.' }),
      files: t.arg({ description: 'The files, as multipart uploads; each keeps its file name and media type.', type: ['File'], required: true }),
    },
    resolve: async (_root, { spaceId, id, files }, ctx) => {
      // Streamed, never read whole: the files of a multipart request wait on disk (http/multipart-spool.ts).
      const uploaded = files.map((file, i) => ({
        name: file.name || `file-${i + 1}`,
        contentType: file.type || null,
        size: file.size,
        head: async (bytes: number) => new Uint8Array(await file.slice(0, bytes).arrayBuffer()),
        stream: () => file.stream() as unknown as AsyncIterable<Uint8Array>,
      }));
      const result = await uploadFiles(ctx.db, ctx.access, blobStore(ctx.config, ctx.db), String(spaceId), String(id), uploaded);
      return fromHead(ctx, result.changeRequestId, 'file', result.outcomes);
    },
  }),
  createReusableContent: t.field({
    description: 'Creates reusable content (written once, included in pages) in a change request.',
    type: ReusableContentRef,
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      id: t.arg.id({ required: true, description: 'ID or number of the change request.' }),
      title: t.arg.string({ description: 'Its title.', required: true }),
      document: t.arg({ type: 'JSON', required: false, description: '`{markdown}`, `{document}` or `{}`.' }),
    },
    resolve: async (_root, { spaceId, id, title, document }, ctx) => {
      const result = await createReusableContent(ctx.db, ctx.access, String(spaceId), String(id), { title, ...(document != null ? { document } : {}) });
      return (await fromHead(ctx, result.changeRequestId, 'reusable-content', [result.outcomes]))[0];
    },
  }),
  updateReusableContent: t.field({
    description: 'Changes reusable content in a change request.',
    type: ReusableContentRef,
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      id: t.arg.id({ required: true, description: 'ID or number of the change request.' }),
      reusableContentId: t.arg.id({ required: true, description: 'The reusable content\'s ID.' }),
      title: t.arg.string({ description: 'The new title; left out, unchanged.', required: false }),
      document: t.arg({ description: 'The new body: `{markdown}`, `{document}` or `{}`; left out, unchanged.', type: 'JSON', required: false }),
    },
    resolve: async (_root, { spaceId, id, reusableContentId, title, document }, ctx) => {
      const input = { ...(title != null ? { title } : {}), ...(document != null ? { document } : {}) };
      const result = await updateReusableContent(ctx.db, ctx.access, String(spaceId), String(id), String(reusableContentId), input);
      return (await fromHead(ctx, result.changeRequestId, 'reusable-content', [result.outcomes]))[0];
    },
  }),
  deleteReusableContent: t.boolean({
    description: 'Deletes reusable content in a change request.',
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), id: t.arg.id({ description: 'ID or number of the change request.', required: true }), reusableContentId: t.arg.id({ required: true, description: 'The reusable content\'s ID.' }) },
    resolve: async (_root, { spaceId, id, reusableContentId }, ctx) => {
      await deleteReusableContent(ctx.db, ctx.access, String(spaceId), String(id), String(reusableContentId));
      return true;
    },
  }),
}));

