import { spacePermissions } from '../../domain/access/capabilities.js';
import type { Space } from '../../generated/prisma/client.js';
import { createSpace } from '../../domain/content/spaces/create.js';
import { startSpaceDuplicate } from '../../domain/content/spaces/duplicate.js';
import { jobResult } from '../../jobs/outcome.js';
import { siteSpaceBaseUrl } from '../../published/urls.js';
import { waitForJob } from '../../jobs/wait.js';
import { effectiveImportWaitMs } from '../../config.js';
import { moveSpace, transferSpace } from '../../domain/content/spaces/relocate.js';
import { deleteSpace, restoreSpace } from '../../domain/content/spaces/trash.js';
import { updateSpace } from '../../domain/content/spaces/update.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { organizationSpaces, organizationSpacesChild, SPACE_COLUMNS, type SpaceColumn, type SpaceRow } from '../../domain/content/spaces/rows.js';
import { loadOrganizationWith } from '../../domain/people/organizations/rows.js';
import { pageVariant } from '../../domain/loaders/index.js';
import { reloaded } from '../../domain/loaders/reload.js';
import { isFirstPage, type Page, type PageArgs } from '../../domain/kernel/pagination/keyset.js';
import { childField, columnsFor, selectedNodeFields } from '../selection.js';
import type { GraphQLResolveInfo } from 'graphql';
import { forgetLoaded, type Context } from '../context.js';
import { RoleEnum, SpaceEditModeEnum, SpaceVisibilityEnum } from './enums.js';
import { OrganizationRef, organizationReadAheads } from './organization.js';
import { PositionInput } from './position.js';
import { apiUrl, appUrl } from '../urls.js';

const SpacePermissions = builder.simpleObject('SpacePermissions', {
  description: 'What the caller may do with the space.',
  fields: (t) => ({
    view: t.boolean(),
    access: t.boolean(),
    admin: t.boolean(),
    viewInviteLinks: t.boolean(),
    edit: t.boolean({ description: 'Change the content directly (live edit mode only).' }),
    triggerGitSync: t.boolean({ description: 'Import from or export to the space\'s git repository (`edit` on a live space; pointing it at another repository needs `admin`).' }),
    comment: t.boolean(),
    merge: t.boolean(),
    review: t.boolean(),
    installIntegration: t.boolean({ description: 'Integrations. Not served by this server yet: always false.' }),
  }),
});

const SpaceUrls = builder.objectRef<{ location: string; app: string; spaceId: string }>('SpaceUrls').implement({
  description: 'Where a space is: in this API and in the app.',
  fields: (t) => ({
    location: t.exposeString('location'),
    app: t.exposeString('app'),
    published: t.string({
      nullable: true,
      description: 'Where the space is published: its first site space in a published site.',
      resolve: async (urls, _args, ctx) => {
        const published = await ctx.loaders.publishedSiteSpace.load(urls.spaceId);
        return published ? `${siteSpaceBaseUrl(ctx.config.publicUrl, published.site, published.section, published)}/` : null;
      },
    }),
  }),
});

export const SpaceRef = builder.prismaNode('Space', {
  description: 'A body of content of an organization: its pages, files and history, edited through change requests.',
  id: { field: 'id' },
  fields: (t) => ({
    title: t.exposeString('title'),
    emoji: t.exposeString('emoji'),
    visibility: t.expose('visibility', { type: SpaceVisibilityEnum }),
    editMode: t.expose('editMode', { type: SpaceEditModeEnum }),
    defaultLevel: t.expose('defaultLevel', { type: RoleEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', nullable: true }),
    revisionId: t.exposeString('revisionId', { description: 'ID of the active revision.' }),
    organizationId: t.exposeString('organizationId'),
    parentId: t.exposeString('parentId', { nullable: true }),
    organization: t.field({
      type: OrganizationRef,
      resolve: async (space, _args, ctx) => (await ctx.loaders.organization.load(space.organizationId))!,
    }),
    comments: t.exposeInt('openCommentCount', { description: 'Open comments.' }),
    changeRequestCount: t.exposeInt('changeRequestCount'),
    changeRequestsOpen: t.exposeInt('openChangeRequestCount'),
    changeRequestsDraft: t.exposeInt('draftChangeRequestCount'),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: SpaceUrls,
      resolve: (space, _args, ctx) => ({ location: apiUrl(ctx, `/spaces/${space.id}`), app: appUrl(ctx, `/s/${space.id}`), spaceId: space.id }),
    }),
    viewerRole: t.field({
      type: RoleEnum,
      nullable: true,
      description: "The caller's effective role on the space.",
      resolve: (space, _args, ctx) => ctx.access.spaceRole(space),
    }),
    permissions: t.field({
      description: 'What the caller may do with it.',
      type: SpacePermissions,
      resolve: async (space, _args, ctx) => spacePermissions(space, await ctx.access.spaceRole(space)),
    }),
  }),
});

/**
 * The columns each field of Space reads beyond CORE_SPACE_COLUMNS (which include what access
 * checks and sort keys need). A field missing here makes lists read every column.
 */
export const SPACE_FIELD_COLUMNS: Record<string, readonly SpaceColumn[]> = {
  __typename: [],
  id: [],
  title: ['title'],
  emoji: ['emoji'],
  visibility: ['visibility'],
  editMode: [],
  defaultLevel: ['defaultLevel'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  deletedAt: [],
  revisionId: ['revisionId'],
  revision: ['revisionId'],
  organizationId: [],
  parentId: [],
  organization: [],
  parent: [],
  comments: ['openCommentCount'],
  commentThreads: [],
  comment: [],
  commenters: [],
  changeRequestCount: ['changeRequestCount'],
  changeRequests: [],
  changeRequest: [],
  changeRequestsOpen: ['openChangeRequestCount'],
  changeRequestsDraft: ['draftChangeRequestCount'],
  urls: [],
  viewerRole: [],
  permissions: [],
  users: [],
  teams: [],
  aggregatedUsers: [],
  links: ['revisionId'],
  mergeRules: ['mergeRules'],
  jobs: [],
  search: [],
  revisionById: [],
  document: [],
  pdfURL: [],
  gitSync: [],
};

const columnsByField = new WeakMap<GraphQLResolveInfo['fieldNodes'], SpaceColumn[]>();

/** The space columns a connection's selected nodes need (worked out once per field of a document). */
export function spaceColumnsFor(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): SpaceColumn[] {
  let columns = columnsByField.get(info.fieldNodes);
  if (!columns) columnsByField.set(info.fieldNodes, (columns = columnsFor(selectedNodeFields(info), SPACE_FIELD_COLUMNS, SPACE_COLUMNS)));
  return columns;
}

/** Where a page of `Organization.spaces` read ahead with the organization is kept for its resolver. */
const organizationSpacesKey = (organizationId: string, args: PageArgs, guest: boolean, columns: readonly SpaceColumn[]) =>
  `spaces:${organizationId}:${pageVariant(args, guest, columns)}`;

builder.prismaObjectFields('Organization', (t) => ({
  spaces: t.connection({
    type: SpaceRef,
    description: 'Live spaces of the organization the caller can access, oldest first.',
    resolve: async (org, args, ctx, info) => {
      const reader = await ctx.access.reader(org.id);
      const columns = spaceColumnsFor(info);
      const readAhead = ctx.loaders.readAhead.get(organizationSpacesKey(org.id, args, reader.guest, columns)) as Page<SpaceRow> | undefined;
      return pageConnection(await organizationSpaces(ctx.db, reader, org, args, columns, readAhead));
    },
  }),
}));

/**
 * `organization(id) { spaces(first: n) { … } }` in one statement: the organization row with the
 * caller's membership, and its first page of spaces as the caller sees them (see loadOrganizationWith).
 */
organizationReadAheads.push(async (ctx, info, organizationId) => {
  const spaces = childField(info, 'Organization', 'spaces');
  if (!spaces || !isFirstPage(spaces.args)) return false;
  const columns = spaceColumnsFor(spaces.selection);
  const list = (guest: boolean) => organizationSpacesChild({ userId: ctx.viewer.userId, guest }, spaces.args, columns);
  const { organization, page } = await loadOrganizationWith(ctx.db, ctx.viewer.userId, organizationId, { member: list(false), guest: list(true) });
  ctx.loaders.organization.prime(organizationId, organization);
  if (page) ctx.loaders.readAhead.set(organizationSpacesKey(organizationId, spaces.args, organization?.viewerRole === null, columns), page);
  return true;
});

builder.queryField('space', (t) =>
  t.field({
    type: SpaceRef,
    description: 'A space by ID; deleted spaces are returned (with `deletedAt`) until purged.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => (await ctx.access.requireSpace(String(id), 'view', { allowDeleted: true })).space,
  }),
);

/** The space after a committed write (which recorded its event). */
const reload = (ctx: Context, id: string): Promise<Space> => {
  forgetLoaded(ctx);
  return reloaded(ctx.loaders.space, id, 'Space');
};

const CreateSpaceInput = builder.inputType('CreateSpaceInput', {
  description: 'A new space: its title and optional settings.',
  fields: (t) => ({
    title: t.string(),
    emoji: t.string(),
    parent: t.id({ description: 'ID of the parent collection.' }),
    editMode: t.field({ type: SpaceEditModeEnum, description: 'live (the default) or locked.' }),
    private: t.boolean({ deprecationReason: 'Private spaces are no longer supported.' }),
  }),
});

const UpdateSpaceInput = builder.inputType('UpdateSpaceInput', {
  description: 'A space\'s new settings; only the given fields change.',
  fields: (t) => ({
    title: t.string(),
    emoji: t.string(),
    editMode: t.field({ type: SpaceEditModeEnum }),
    defaultLevel: t.field({ type: RoleEnum }),
    mergeRules: t.field({ type: 'JSON', description: '{type: "inherit"} (the organization\'s), {type: "none"} or {type: "rules", rules: MergeRule[]}; needs space admin.' }),
  }),
});

builder.mutationFields((t) => ({
  createSpace: t.field({
    description: 'Creates a space (a body of content with its own pages and history) in an organization, at its root or in a parent collection.',
    type: SpaceRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ type: CreateSpaceInput, required: false }) },
    resolve: async (_root, { organizationId, input }, ctx) => {
      const id = await createSpace(ctx.db, ctx.access, {
        organizationId: String(organizationId),
        title: input?.title ?? undefined,
        emoji: input?.emoji ?? undefined,
        parent: input?.parent == null ? undefined : String(input.parent),
        private: input?.private ?? undefined,
        editMode: input?.editMode ?? undefined,
      });
      return reload(ctx, id);
    },
  }),
  updateSpace: t.field({
    description: 'Changes a space\'s title, emoji, edit mode, default level or merge rules; only the given fields change.',
    type: SpaceRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateSpaceInput, required: true }) },
    resolve: async (_root, { id, input }, ctx) => {
      const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v != null));
      return reload(ctx, await updateSpace(ctx.db, ctx.access, String(id), clean));
    },
  }),
  deleteSpace: t.boolean({
    description: 'Moves the space to the trash; it is purged after 7 days.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await deleteSpace(ctx.db, ctx.access, String(id));
      return true;
    },
  }),
  restoreSpace: t.field({
    type: SpaceRef,
    description: 'Restores a space deleted in the last 7 days.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => reload(ctx, await restoreSpace(ctx.db, ctx.access, String(id))),
  }),
  duplicateSpace: t.field({
    type: SpaceRef,
    description: 'Copies the space (right after it) through a job (`Space.jobs`, kind `space_duplicate`), and answers the copy once it is made.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const started = await startSpaceDuplicate(ctx.db, ctx.access, String(id));
      const job = await waitForJob(ctx.db, ctx.events, started.id, effectiveImportWaitMs(ctx.config));
      return reload(ctx, jobResult<{ spaceId: string }>(job).spaceId);
    },
  }),
  moveSpace: t.field({
    type: SpaceRef,
    description: 'Moves a space to a parent collection (null: the root) and/or a position among its siblings; the end by default.',
    args: {
      id: t.arg.id({ required: true }),
      parent: t.arg.id({ required: false }),
      position: t.arg({ type: PositionInput, required: false }),
    },
    resolve: async (_root, { id, parent, position }, ctx) =>
      reload(ctx, await moveSpace(ctx.db, ctx.access, String(id), { parent: parent === undefined ? undefined : parent && String(parent), position })),
  }),
  transferSpace: t.field({
    description: 'Moves a space to another organization (and optionally into one of its collections).',
    type: SpaceRef,
    args: { id: t.arg.id({ required: true }), organization: t.arg.id({ required: true }), parent: t.arg.id({ required: false }) },
    resolve: async (_root, { id, organization, parent }, ctx) =>
      reload(ctx, await transferSpace(ctx.db, ctx.access, String(id), { organization: String(organization), parent: parent && String(parent) })),
  }),
}));
