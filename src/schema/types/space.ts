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
import { organizationSpaces, organizationSpacesChild, SPACE_COLUMNS, type SpaceColumn, type SpaceListRow, type SpaceRow } from '../../domain/content/spaces/rows.js';
import { loadOrganizationWith } from '../../domain/people/organizations/rows.js';
import { pageVariant } from '../../domain/loaders/index.js';
import { reloaded } from '../../domain/loaders/reload.js';
import { isFirstPage, type Page, type PageArgs } from '../../domain/kernel/pagination/keyset.js';
import type { CountedPage } from '../../domain/kernel/pagination/counted.js';
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
    view: t.boolean({ description: 'Whether the caller may read the space, its content and links (`read`).' }),
    access: t.boolean({ description: "Same as `view` (the public API's name for it)." }),
    admin: t.boolean({ description: 'Whether the caller may administer it: settings, access, moving and deleting (`admin`).' }),
    viewInviteLinks: t.boolean({ description: 'Whether the caller may see and manage its invite links (`admin`).' }),
    edit: t.boolean({ description: 'Change the content directly (live edit mode only).' }),
    triggerGitSync: t.boolean({ description: 'Import from or export to the space\'s git repository (`edit` on a live space; pointing it at another repository needs `admin`).' }),
    comment: t.boolean({ description: 'Whether the caller may post, resolve and react to comments (`comment`).' }),
    merge: t.boolean({ description: 'Whether the caller may merge change requests (`review`, live edit mode only).' }),
    review: t.boolean({ description: 'Whether the caller may review change requests (`review`).' }),
    installIntegration: t.boolean({ description: 'Integrations. Not served by this server yet: always false.' }),
  }),
});

const SpaceUrls = builder.objectRef<{ location: string; app: string; spaceId: string }>('SpaceUrls').implement({
  description: 'Where a space is: in this API and in the app.',
  fields: (t) => ({
    location: t.exposeString('location', { description: 'Its absolute URL in this API.' }),
    app: t.exposeString('app', { description: 'Its absolute URL in the app.' }),
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
    title: t.exposeString('title', { description: 'Its title.' }),
    emoji: t.exposeString('emoji', { description: 'Its emoji (the character itself); empty when it has none.' }),
    visibility: t.expose('visibility', { description: 'Who may read it besides those given access.', type: SpaceVisibilityEnum }),
    editMode: t.expose('editMode', { description: 'Whether it is edited directly or only through change requests.', type: SpaceEditModeEnum }),
    defaultLevel: t.expose('defaultLevel', { description: 'The role members with an organization role get on it (unless it is private).', type: RoleEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    deletedAt: t.expose('deletedAt', { description: 'When it was moved to the trash (purged 7 days later); null while it is live.', type: 'DateTime', nullable: true }),
    revisionId: t.exposeString('revisionId', { description: 'ID of the active revision.' }),
    organizationId: t.exposeString('organizationId', { description: 'The ID of its organization.' }),
    parentId: t.exposeString('parentId', { description: "The ID of its parent collection; null at the organization's root.", nullable: true }),
    organization: t.field({ description: 'Its organization.',
      type: OrganizationRef,
      resolve: async (space, _args, ctx) => (await ctx.loaders.organization.load(space.organizationId))!,
    }),
    comments: t.exposeInt('openCommentCount', { description: 'Open comments.' }),
    changeRequestCount: t.exposeInt('changeRequestCount', { description: 'How many change requests it has, whatever their status.' }),
    changeRequestsOpen: t.exposeInt('openChangeRequestCount', { description: 'How many of its change requests are open.' }),
    changeRequestsDraft: t.exposeInt('draftChangeRequestCount', { description: 'How many of its change requests are drafts.' }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: SpaceUrls,
      resolve: (space, _args, ctx) => ({ location: apiUrl(ctx, `/spaces/${space.id}`), app: appUrl(ctx, `/s/${space.id}`), spaceId: space.id }),
    }),
    viewerRole: t.field({
      type: RoleEnum,
      nullable: true,
      description: "The caller's effective role on the space.",
      resolve: (space, _args, ctx) => {
        const role = ctx.access.spaceRoleNow(space);
        return role !== undefined ? role : ctx.access.spaceRole(space);
      },
    }),
    permissions: t.field({
      description: 'What the caller may do with it.',
      type: SpacePermissions,
      resolve: (space, _args, ctx) => {
        const role = ctx.access.spaceRoleNow(space);
        return role !== undefined ? spacePermissions(space, role) : ctx.access.spaceRole(space).then((r) => spacePermissions(space, r));
      },
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

/**
 * A list's page (SpaceListRow: times as ISO text) as a page of Space, whose shape is Prisma's row
 * (times as Dates). Space reads its times only in `createdAt`, `updatedAt` and `deletedAt`, as
 * DateTime, whose scalar writes ISO text as it is; none of its other fields reads them.
 */
export const spaceNodes = (page: CountedPage<SpaceListRow>) => page as unknown as CountedPage<SpaceRow>;

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
      const readAhead = ctx.loaders.readAhead.get(organizationSpacesKey(org.id, args, reader.guest, columns)) as Page<SpaceListRow> | undefined;
      return pageConnection(spaceNodes(await organizationSpaces(ctx.db, reader, org, args, columns, readAhead)));
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
    args: { id: t.arg.id({ description: "The space's ID.", required: true }) },
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
    title: t.string({ description: 'Its title (at most 50 characters); `Untitled` when left out.' }),
    emoji: t.string({ description: 'Its emoji (the character itself); none when left out.' }),
    parent: t.id({ description: 'ID of the parent collection.' }),
    editMode: t.field({ type: SpaceEditModeEnum, description: 'live (the default) or locked.' }),
    private: t.boolean({ description: 'Ignored: every space is private to its organization unless published.', deprecationReason: 'Private spaces are no longer supported.' }),
  }),
});

const UpdateSpaceInput = builder.inputType('UpdateSpaceInput', {
  description: 'A space\'s new settings; only the given fields change.',
  fields: (t) => ({
    title: t.string({ description: 'The new title (at most 50 characters).' }),
    emoji: t.string({ description: 'The new emoji (the character itself).' }),
    editMode: t.field({ description: 'The new edit mode (needs space admin).', type: SpaceEditModeEnum }),
    defaultLevel: t.field({ description: 'The role members with an organization role get on it (needs space admin).', type: RoleEnum }),
    mergeRules: t.field({ type: 'JSON', description: '{type: "inherit"} (the organization\'s), {type: "none"} or {type: "rules", rules: MergeRule[]}; needs space admin.' }),
  }),
});

builder.mutationFields((t) => ({
  createSpace: t.field({
    description: 'Creates a space (a body of content with its own pages and history) in an organization, at its root or in a parent collection.',
    type: SpaceRef,
    args: { organizationId: t.arg.id({ required: true, description: 'The organization\'s ID.' }), input: t.arg({ description: "The new space's settings; left out, an untitled live space.", type: CreateSpaceInput, required: false }) },
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
    args: { id: t.arg.id({ description: "The space's ID.", required: true }), input: t.arg({ description: 'The settings to change.', type: UpdateSpaceInput, required: true }) },
    resolve: async (_root, { id, input }, ctx) => {
      const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v != null));
      return reload(ctx, await updateSpace(ctx.db, ctx.access, String(id), clean));
    },
  }),
  deleteSpace: t.boolean({
    description: 'Moves the space to the trash; it is purged after 7 days.',
    args: { id: t.arg.id({ description: "The space's ID.", required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await deleteSpace(ctx.db, ctx.access, String(id));
      return true;
    },
  }),
  restoreSpace: t.field({
    type: SpaceRef,
    description: 'Restores a space deleted in the last 7 days.',
    args: { id: t.arg.id({ description: "The space's ID.", required: true }) },
    resolve: async (_root, { id }, ctx) => reload(ctx, await restoreSpace(ctx.db, ctx.access, String(id))),
  }),
  duplicateSpace: t.field({
    type: SpaceRef,
    description: 'Copies the space (right after it) through a job (`Space.jobs`, kind `space_duplicate`), and answers the copy once it is made.',
    args: { id: t.arg.id({ description: "The space's ID.", required: true }) },
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
      id: t.arg.id({ description: "The space's ID.", required: true }),
      parent: t.arg.id({ description: "The ID of the collection to move it into; null: the organization's root; left out: it stays in its parent.", required: false }),
      position: t.arg({ description: 'Where among its new siblings; left out: at the end.', type: PositionInput, required: false }),
    },
    resolve: async (_root, { id, parent, position }, ctx) =>
      reload(ctx, await moveSpace(ctx.db, ctx.access, String(id), { parent: parent === undefined ? undefined : parent && String(parent), position })),
  }),
  transferSpace: t.field({
    description: 'Moves a space to another organization (and optionally into one of its collections).',
    type: SpaceRef,
    args: { id: t.arg.id({ description: "The space's ID.", required: true }), organization: t.arg.id({ description: 'The ID of the organization to move it to (`create` needed there).', required: true }), parent: t.arg.id({ description: 'The ID of a collection of that organization to put it in; left out: its root.', required: false }) },
    resolve: async (_root, { id, organization, parent }, ctx) =>
      reload(ctx, await transferSpace(ctx.db, ctx.access, String(id), { organization: String(organization), parent: parent && String(parent) })),
  }),
}));
