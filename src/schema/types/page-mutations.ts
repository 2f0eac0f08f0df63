/**
 * One page change at a time (each a batch of one: see updateChangeRequestContent), answered with
 * the page as the change request's new revision has it.
 */
import { writeContent } from '../../domain/versions/change-requests/write-content.js';
import { fileFetch } from '../../domain/versions/files/file-fetch.js';
import { blobStore } from '../../domain/versions/files/blob-store.js';
import { revisionScope } from '../../domain/versions/revisions/load.js';
import { pageById } from '../../domain/versions/revisions/pages.js';
import { builder } from '../builder.js';
import { forgetLoaded, type Context } from '../context.js';
import { PageRef, PageTypeEnum, type PageShape } from './page.js';

const PageInput = builder.inputType('PageInput', {
  description: 'A page\'s new title, description, content or other settings; only the given fields change.',
  fields: (t) => ({
    title: t.string({ description: "Title (a markdown body's `#` heading wins)." }),
    slug: t.string({ description: 'Unique among siblings; from the title when omitted.' }),
    markdown: t.string({ description: "The body in the platform's markdown dialect." }),
    document: t.field({ type: 'JSON', description: 'The body as a JSON document (instead of markdown).' }),
    emoji: t.string({ description: 'Empty string: removes it.' }),
    icon: t.string({ description: 'Empty string: removes it.' }),
    description: t.string({ description: "The page's description (at most 1000 characters)." }),
    hidden: t.boolean({ description: 'If true, the page is not displayed in the navigation, while still being accessible.' }),
    target: t.field({ type: 'JSON', description: 'Link pages: a ContentRef.' }),
  }),
});

type Input = { title?: string | null; slug?: string | null; markdown?: string | null; document?: unknown; emoji?: string | null; icon?: string | null; description?: string | null; hidden?: boolean | null; target?: unknown };

/** The input as a change of the batch: absent fields left out, the body as `{markdown}` or `{document}`. */
function fields(input: Input | null | undefined): Record<string, unknown> {
  const { markdown, document, ...rest } = input ?? {};
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v != null));
  if (markdown != null) out.document = { markdown };
  else if (document != null) out.document = { document };
  return out;
}

/** Applies one change and answers the page it touched in the request's new head. */
async function change(ctx: Context, spaceId: string, id: string, pageChange: Record<string, unknown>): Promise<PageShape | null> {
  const result = await writeContent(ctx.db, ctx.access, spaceId, id, { changes: [pageChange] }, blobStore(ctx.config, ctx.db), fileFetch(ctx.config));
  forgetLoaded(ctx);
  const outcome = result.outcomes[0];
  if (!outcome || !('page' in outcome) || outcome.object === 'deleted_page') return null;
  const changeRequest = (await ctx.loaders.changeRequest.load(result.changeRequestId))!;
  const scope = await revisionScope(ctx.db, changeRequest.revisionId);
  const node = await pageById(ctx.db, scope, outcome.page);
  return node && { node, scope };
}

const target = { spaceId: { required: true, description: "The space's ID." }, id: { required: true, description: 'ID or number of the change request.' } } as const;

builder.mutationFields((t) => ({
  createPage: t.field({
    type: PageRef,
    description: 'Adds a page to a change request (at the end of its parent unless `at` is given).',
    args: {
      spaceId: t.arg.id(target.spaceId),
      id: t.arg.id(target.id),
      parent: t.arg.id({ required: false, description: 'The parent page; omitted: the top level.' }),
      at: t.arg.int({ required: false, description: 'Index among its siblings.' }),
      type: t.arg({ type: PageTypeEnum, required: false, description: 'document (default), group (top level only) or link.' }),
      input: t.arg({ description: "The new page's title, body and settings.", type: PageInput, required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const page = await change(ctx, String(args.spaceId), String(args.id), {
        operation: 'insert_page',
        ...(args.parent != null ? { into: String(args.parent) } : {}),
        ...(args.at != null ? { at: args.at } : {}),
        ...(args.type ? { type: args.type } : {}),
        ...fields(args.input),
      });
      return page!;
    },
  }),
  updatePage: t.field({
    type: PageRef,
    description: "Changes a page's metadata and body in a change request.",
    args: { spaceId: t.arg.id(target.spaceId), id: t.arg.id(target.id), page: t.arg.id({ description: "The page's ID.", required: true }), input: t.arg({ description: 'The fields to change.', type: PageInput, required: true }) },
    resolve: async (_root, args, ctx) => (await change(ctx, String(args.spaceId), String(args.id), { operation: 'update_page', page: String(args.page), ...fields(args.input) }))!,
  }),
  movePage: t.field({
    type: PageRef,
    description: 'Moves a page under another (null: the top level) and/or to an index among its siblings.',
    args: {
      spaceId: t.arg.id(target.spaceId),
      id: t.arg.id(target.id),
      page: t.arg.id({ description: "The page's ID.", required: true }),
      parent: t.arg.id({ required: false, description: 'The new parent; null: the top level; omitted: the same parent.' }),
      at: t.arg.int({ description: 'Index among its new siblings; omitted: the end (or unchanged when the parent is).', required: false }),
    },
    resolve: async (_root, args, ctx) => {
      const into = args.parent === undefined ? {} : { into: args.parent === null ? null : String(args.parent) };
      return (await change(ctx, String(args.spaceId), String(args.id), { operation: 'update_page', page: String(args.page), ...into, ...(args.at != null ? { at: args.at } : {}) }))!;
    },
  }),
  deletePage: t.boolean({
    description: 'Deletes a page and its subpages from a change request.',
    args: { spaceId: t.arg.id(target.spaceId), id: t.arg.id(target.id), page: t.arg.id({ description: "The page's ID.", required: true }) },
    resolve: async (_root, args, ctx) => {
      await change(ctx, String(args.spaceId), String(args.id), { operation: 'delete_page', page: String(args.page) });
      return true;
    },
  }),
}));
