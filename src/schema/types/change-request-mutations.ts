/** Writes of change requests: open, update, and change their content. */
import { createChangeRequest } from '../../domain/versions/change-requests/create.js';
import { updateChangeRequest } from '../../domain/versions/change-requests/update.js';
import { writeContent } from '../../domain/versions/change-requests/write-content.js';
import type { ChangeOutcome } from '../../domain/versions/change-requests/apply.js';
import { fileFetch } from '../../domain/versions/files/file-fetch.js';
import { blobStore } from '../../domain/versions/files/blob-store.js';
import { entitiesOfRevision, RevisionFileRef } from './revision-content.js';
import { mergeChangeRequest } from '../../domain/versions/change-requests/merge.js';
import { updateFromSpace } from '../../domain/versions/change-requests/update-from-space.js';
import type { ChangeRequestRow } from '../../domain/versions/change-requests/rows.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { ChangeRequestRef, ChangeRequestStatusEnum } from './change-request.js';
import { PageTypeEnum } from './page.js';

/** The change request after a committed write. */
async function reload(ctx: Context, id: string): Promise<ChangeRequestRow> {
  forgetLoaded(ctx);
  return (await ctx.loaders.changeRequest.load(id))!;
}

const UpdateChangeRequestInput = builder.inputType('UpdateChangeRequestInput', {
  description: 'A change request\'s new subject or description; only the given fields change.',
  fields: (t) => ({
    subject: t.string({ description: 'At most 100 characters.' }),
    status: t.field({ type: ChangeRequestStatusEnum, description: 'draft, open or archived (merged only by merging).' }),
  }),
});

export const PageChangeOperationEnum = builder.enumType('PageChangeOperation', { description: 'What one change of a batch does to a change request\'s pages.', values: {
    insert_page: { description: 'Creates a page (`into`, `at`, `type`, its fields and `document`).' },
    update_page: { description: 'Changes a page (`page`): its fields, its body, or where it is (`into`, `at`).' },
    delete_page: { description: 'Deletes a page (`page`) and the pages under it.' },
    insert_files: { description: 'Adds files (`files`) to the content.' },
  } as const });

const FileSourceInput = builder.inputType('FileSourceInput', {
  description: 'A file of an insert_files change: its bytes inline (base64, at most 1 MB; use uploadChangeRequestFiles for larger ones), or a URL to fetch them from.',
  fields: (t) => ({
    ref: t.string({ description: 'A name for the file within the batch, echoed in the outcome.' }),
    name: t.string({ description: 'Its file name, as the content shows it.', required: true }),
    contentType: t.string({ description: 'Its MIME type: required with `base64`.' }),
    base64: t.string({ description: 'Its bytes, base64-encoded (at most 1 MB); give this or `url`.' }),
    url: t.string({ description: 'Where to fetch the bytes from instead (http or https; public addresses unless the operator allows private ones; at most 20 MiB).' }),
  }),
});

const PageChangeInput = builder.inputType('PageChangeInput', {
  description: 'One change of a batch (REST `changes[]`): insert, update (metadata, body, move) or delete a page.',
  fields: (t) => ({
    operation: t.field({ description: 'What the change does; the other fields apply as each one says.', type: PageChangeOperationEnum, required: true }),
    page: t.id({ description: 'update_page, delete_page: the page.' }),
    into: t.id({ description: 'The parent page; null: the top level. update_page: omit to keep the parent.' }),
    at: t.int({ description: 'Index among the new siblings; omitted: the end (or unchanged when the parent is).' }),
    ref: t.string({ description: 'insert_page: a name for the new page, echoed in the outcome.' }),
    type: t.field({ type: PageTypeEnum, description: 'insert_page: document (default), group (top level only) or link.' }),
    target: t.field({ type: 'JSON', description: 'Link pages: a ContentRef.' }),
    document: t.field({ type: 'JSON', description: '`{markdown}`, `{document: JSONDocument}` or `{}` (an empty page).' }),
    title: t.string({ description: "The page's title (at most 255 characters); a markdown `document`'s leading heading or front matter title wins; insert_page: `Untitled` without any." }),
    slug: t.string({ description: 'Unique among siblings; derived from the title when omitted.' }),
    emoji: t.string({ description: 'Empty string: removes it.' }),
    icon: t.string({ description: 'Empty string: removes it.' }),
    description: t.string({ description: "The page's description (at most 1000 characters)." }),
    hidden: t.boolean({ description: 'Whether the page is hidden from its table of contents (it stays readable by its URL).' }),
    files: t.field({ type: [FileSourceInput], description: 'insert_files: the files (1 to 20).' }),
  }),
});

const PageChangeOutcome = builder.simpleObject('PageChangeOutcome', {
  description: 'The outcome of one change of a batch: what it did and the page or file it touched.',
  fields: (t) => ({
    object: t.string({ description: 'created_page, updated_page, deleted_page or created_file.' }),
    page: t.id({ description: 'The ID of the page it created, changed or deleted; null for created_file.', nullable: true }),
    file: t.id({ description: 'The ID of the file it created; null otherwise.', nullable: true }),
    ref: t.string({ description: "The change's (or file's) `ref`, as given; null when none was.", nullable: true }),
  }),
});

const ChangeRequestContentUpdate = builder.objectRef<{ changeRequest: ChangeRequestRow; changes: ChangeOutcome[] }>('ChangeRequestContentUpdate').implement({
  description: 'A change request after a batch of page changes, and the outcome of each change.',
  fields: (t) => ({
    changeRequest: t.field({ description: 'The change request, as read after the batch.', type: ChangeRequestRef, resolve: (r) => r.changeRequest }),
    insertedFiles: t.field({
      type: [RevisionFileRef],
      description: 'The files the batch added, in order.',
      resolve: async (r, _a, ctx) => {
        const ids = r.changes.flatMap((c) => (c.object === 'created_file' ? [c.file] : []));
        return entitiesOfRevision(ctx, r.changeRequest.revisionId, 'file', ids);
      },
    }),
    changes: t.field({ description: "The outcome of each change, in the batch's order (one per file for insert_files).",
      type: [PageChangeOutcome],
      resolve: (r) => r.changes.map((c) => ({ object: c.object, page: 'page' in c ? c.page : null, file: 'file' in c ? c.file : null, ref: ('ref' in c && c.ref) || null })),
    }),
  }),
});

/** Input objects as the domain validates them: absent fields dropped (in files too), an explicit `into: null` kept. */
const withoutNulls = (change: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(change)
      .filter(([k, v]) => v !== undefined && (v !== null || k === 'into'))
      .map(([k, v]) => [k, k === 'files' && Array.isArray(v) ? v.map((f) => withoutNulls(f as Record<string, unknown>)) : v]),
  );

export const MergeResultEnum = builder.enumType('MergeResult', { description: 'How a change request\'s merge or update ended: merged, updated, or stopped by conflicts.', values: { merge: { description: 'The change request was merged into the space.' }, update: { description: 'The change request was brought up to date with the space\'s content.' }, conflicts: { description: 'Stopped by conflicts, to be resolved first.' } } as const });

const MergeOutcomeRef = builder.objectRef<{ revision: string; result: 'merge' | 'update' | 'conflicts'; changeRequestId: string }>('MergeOutcome').implement({
  description: 'What a merge or an update did: `conflicts` means nothing was written (see ChangeRequest.conflicts).',
  fields: (t) => ({
    revision: t.string({ description: "The space's new revision (merge), the request's (update), or the current one (conflicts).", resolve: (o) => o.revision }),
    result: t.field({ description: 'Whether it merged, updated, or stopped on conflicts.', type: MergeResultEnum, resolve: (o) => o.result }),
    changeRequest: t.field({ description: 'The change request, as read after the merge or update.', type: ChangeRequestRef, resolve: (o, _a, ctx) => reload(ctx, o.changeRequestId) }),
  }),
});

builder.mutationFields((t) => ({
  mergeChangeRequest: t.field({
    type: MergeOutcomeRef,
    description: 'Merges the change request into the space (three-way, block by block); with conflicts nothing is written.',
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), id: t.arg.id({ required: true, description: 'ID or number.' }) },
    resolve: async (_root, { spaceId, id }, ctx) => {
      const outcome = await mergeChangeRequest(ctx.db, ctx.access, String(spaceId), String(id));
      forgetLoaded(ctx);
      return { ...outcome, changeRequestId: (await ctx.access.requireChangeRequest(String(spaceId), String(id))).changeRequest.id };
    },
  }),
  updateChangeRequestFromSpace: t.field({
    type: MergeOutcomeRef,
    description: "Brings the space's current content into the change request; with conflicts nothing is written.",
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), id: t.arg.id({ required: true, description: 'ID or number.' }) },
    resolve: async (_root, { spaceId, id }, ctx) => {
      const outcome = await updateFromSpace(ctx.db, ctx.access, String(spaceId), String(id));
      forgetLoaded(ctx);
      return { ...outcome, changeRequestId: (await ctx.access.requireChangeRequest(String(spaceId), String(id))).changeRequest.id };
    },
  }),
  createChangeRequest: t.field({
    type: ChangeRequestRef,
    description: "Opens a change request (a draft) on the space's current revision; needs `edit` on the space.",
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), subject: t.arg.string({ description: 'Its subject (at most 100 characters); empty when left out.', required: false }) },
    resolve: async (_root, { spaceId, subject }, ctx) => reload(ctx, await createChangeRequest(ctx.db, ctx.access, String(spaceId), subject == null ? {} : { subject })),
  }),
  updateChangeRequest: t.field({
    description: 'Changes a change request\'s subject or description.',
    type: ChangeRequestRef,
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), id: t.arg.id({ required: true, description: 'ID or number.' }), input: t.arg({ description: 'The fields to change.', type: UpdateChangeRequestInput, required: true }) },
    resolve: async (_root, { spaceId, id, input }, ctx) => {
      const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v != null));
      return reload(ctx, await updateChangeRequest(ctx.db, ctx.access, String(spaceId), String(id), clean));
    },
  }),
  updateChangeRequestContent: t.field({
    type: ChangeRequestContentUpdate,
    description: 'Applies up to 50 page changes, in order, as one new revision of the change request: all or nothing.',
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      id: t.arg.id({ required: true, description: 'ID or number.' }),
      changes: t.arg({ description: 'The changes, applied in order (at most 50).', type: [PageChangeInput], required: true }),
    },
    resolve: async (_root, { spaceId, id, changes }, ctx) => {
      const result = await writeContent(ctx.db, ctx.access, String(spaceId), String(id), { changes: changes.map((c) => withoutNulls(c as Record<string, unknown>)) }, blobStore(ctx.config, ctx.db), fileFetch(ctx.config));
      return { changeRequest: await reload(ctx, result.changeRequestId), changes: result.outcomes };
    },
  }),
}));
