/**
 * `node(id)` and `nodes(ids)`: an explicit registry from ID kind (the ID's prefix, kernel/ids.ts)
 * to an access-checked load, so a node refetch passes the same checks as the object's own field.
 * Every load goes through request loaders, so `nodes` over many IDs reads one statement per kind
 * (and per level of its access check), not one per ID.
 *
 * Pages, files and reusable contents keep their IDs across a space's revisions (and a copied
 * space keeps them too): their `id` is unique only within a revision. Their node ID is the
 * revision-qualified `nodeId` (`<revisionId>:<entityId>`, see `revisionNodeId`).
 */
import { AppError, badRequest, notFound } from '../lib/errors.js';
import { SSO_REQUIRED } from '../domain/access/access.js';
import type { IdKind } from '../domain/kernel/ids.js';
import { kindOfId } from '../domain/kernel/ids.js';
import { revisionEntityKey } from '../domain/loaders/nodes.js';
import { requireTeam } from '../domain/people/teams/access.js';
import { requireCommentScope } from '../domain/comments/scope.js';
import { buildTree, walk } from '../domain/versions/revisions/tree.js';
import type { OrganizationAction } from '../domain/access/capabilities.js';
import type { Context } from './context.js';

/** The node ID of what a revision holds by an ID of its own (a page, file or reusable content). */
export const revisionNodeId = (revisionId: string, entityId: string) => `${revisionId}:${entityId}`;

type Found = { typename: string; value: object };
type NodeLoader = (ctx: Context, id: string) => Promise<Found>;

const as = (typename: string) => (value: object): Found => ({ typename, value });

const required = async <T>(row: Promise<T | null | undefined>, what: string): Promise<T> => {
  const value = await row;
  if (!value) throw notFound(what);
  return value;
};

/** A row of an organization, to whoever may `action` there (a member without the right: not found either). */
const inOrganization =
  <T extends { organizationId: string }>(typename: string, what: string, load: (ctx: Context, id: string) => Promise<T | null>, action: OrganizationAction): NodeLoader =>
  async (ctx, id) => {
    const row = await required(load(ctx, id), what);
    await ctx.access.requireOrganization(row.organizationId, action);
    return as(typename)(row);
  };

/** A part of a site (section, group, site space, share link), to whoever may read the site (`Site.sections` …). */
const inSite =
  <T extends { siteId: string }>(typename: string, what: string, load: (ctx: Context, id: string) => Promise<T | null>): NodeLoader =>
  async (ctx, id) => {
    const row = await required(load(ctx, id), what);
    await ctx.access.requireSite(row.siteId, 'view');
    return as(typename)(row);
  };

/** A revision of a space the caller may view (`Space.revision`, `ChangeRequest.revision`). */
async function revision(ctx: Context, id: string) {
  const row = await required(ctx.loaders.revision.load(id), 'Revision');
  await ctx.access.requireSpace(row.spaceId, 'view', { allowDeleted: true });
  return row;
}

/** `<revisionId>:<entityId>`: a page, file or reusable content of a revision the caller may read. */
async function inRevision(ctx: Context, id: string): Promise<Found> {
  const [revisionId, entityId = ''] = id.split(':');
  const kind = kindOfId(entityId);
  if (kindOfId(revisionId) !== 'Revision' || !kind) throw notFound('Node');
  const scope = await revision(ctx, revisionId);
  if (kind === 'RevisionPage') {
    const pages = await ctx.loaders.revisionPages.load(revisionId);
    if (!pages.some((p) => p.entityId === entityId)) throw notFound('Page');
    const node = [...walk(buildTree(pages))].find((n) => n.entry.entityId === entityId);
    if (!node) throw notFound('Page');
    return as('Page')({ node, scope });
  }
  if (kind !== 'File' && kind !== 'ReusableContent') throw notFound('Node');
  const entityKind = kind === 'File' ? 'file' : 'reusable-content';
  const entry = await required(ctx.loaders.revisionEntity.load(revisionEntityKey(revisionId, entityKind, entityId)), kind === 'File' ? 'File' : 'Reusable content');
  return as(kind === 'File' ? 'RevisionFile' : 'ReusableContent')({ entry, scope });
}

export const nodeLoaders: Partial<Record<IdKind, NodeLoader>> = {
  Organization: async (ctx, id) => as('Organization')(await ctx.access.requireOrganization(id)),
  Space: async (ctx, id) => as('Space')((await ctx.access.requireSpace(id, 'view', { allowDeleted: true })).space),
  Collection: async (ctx, id) => as('Collection')((await ctx.access.requireCollection(id)).collection),
  Team: async (ctx, id) => as('Team')(await requireTeam(ctx.access, id, 'view')),
  /** Visible with its space (a change request of a space the caller cannot read is not found). */
  ChangeRequest: async (ctx, id) => {
    const row = await required(ctx.loaders.changeRequest.load(id), 'Change request');
    return as('ChangeRequest')((await ctx.access.requireChangeRequest(row.spaceId, id)).changeRequest);
  },
  User: async (ctx, id) => {
    const user = id === ctx.viewer.userId || (await ctx.loaders.userVisible.load(id)) ? await ctx.loaders.user.load(id) : null;
    return as('User')(await required(Promise.resolve(user), 'User'));
  },
  Revision: async (ctx, id) => as('Revision')(await revision(ctx, id)),
  /** Reviews are read with their change request, so with its space (`ChangeRequest.reviews`). */
  ChangeRequestReview: async (ctx, id) => {
    const review = await required(ctx.loaders.changeRequestReview.load(id), 'Review');
    await ctx.access.requireChangeRequest(review.spaceId, review.changeRequestId);
    return as('ChangeRequestReview')(review);
  },
  /** Comments and replies, to whoever may read their place (`Space.comment`, `ChangeRequest.comment`). */
  Comment: async (ctx, id) => {
    const comment = await required(ctx.loaders.comment.load(id), 'Comment');
    await requireCommentScope(ctx.access, comment.spaceId, comment.changeRequestId, 'view');
    return as('Comment')(comment);
  },
  CommentReply: async (ctx, id) => {
    const reply = await required(ctx.loaders.commentReply.load(id), 'Comment reply');
    await requireCommentScope(ctx.access, reply.spaceId, reply.changeRequestId, 'view');
    return as('CommentReply')(reply);
  },
  Job: async (ctx, id) => as('Job')(await ctx.access.requireJob(await ctx.loaders.job.load(id))),
  Site: async (ctx, id) => as('Site')(await ctx.access.requireSite(id, 'view')),
  SiteSection: inSite('SiteSection', 'Site section', (ctx, id) => ctx.loaders.siteSection.load(id)),
  SiteSectionGroup: inSite('SiteSectionGroup', 'Site section group', (ctx, id) => ctx.loaders.siteSectionGroup.load(id)),
  SiteSpace: inSite('SiteSpace', 'Site space', (ctx, id) => ctx.loaders.siteSpace.load(id)),
  SiteShareLink: inSite('SiteShareLink', 'Share link', (ctx, id) => ctx.loaders.siteShareLink.load(id)),
  SiteRedirect: inSite('SiteRedirect', 'Site redirect', (ctx, id) => ctx.loaders.siteRedirect.load(id)),
  SiteExternalLink: inSite('SiteExternalLink', 'Site external link', (ctx, id) => ctx.loaders.siteExternalLink.load(id)),
  OpenAPISpec: inOrganization('OpenAPISpec', 'OpenAPI specification', (ctx, id) => ctx.loaders.openAPISpec.load(id), 'viewOpenAPISpecs'),
  OpenAPISpecVersion: async (ctx, id) => {
    const version = await required(ctx.loaders.openAPISpecVersion.load(id), 'OpenAPI specification version');
    const spec = await required(ctx.loaders.openAPISpec.load(version.specId), 'OpenAPI specification version');
    await ctx.access.requireOrganization(spec.organizationId, 'viewOpenAPISpecs');
    return as('OpenAPISpecVersion')(version);
  },
  SamlProvider: inOrganization('SamlProvider', 'SAML provider', (ctx, id) => ctx.loaders.samlProvider.load(id), 'manageSso'),
  CustomFont: inOrganization('CustomFont', 'Font', (ctx, id) => ctx.loaders.customFont.load(id), 'viewFonts'),
  TranslationSettings: inOrganization('TranslationSettings', 'Translation', (ctx, id) => ctx.loaders.translationSettings.load(id), 'viewTranslations'),
  MemberInvite: inOrganization('MemberInvite', 'Invite', (ctx, id) => ctx.loaders.memberInvite.load(id), 'manageMembers'),
  /** The caller's own tokens, within their credential's reach (`apiTokens`). */
  ApiToken: async (ctx, id) => {
    const token = await ctx.loaders.apiToken.load(id);
    const confinedTo = ctx.viewer.confinedTo;
    if (!token || token.userId !== ctx.viewer.userId || (confinedTo && token.organizationId !== confinedTo)) throw notFound('API token');
    return as('ApiToken')(token);
  },
  LinkInvite: inOrganization('LinkInvite', 'Invite', (ctx, id) => ctx.loaders.linkInvite.load(id), 'manageMembers'),
};

/**
 * The object of a node ID, as its own field would answer it, or NOT_FOUND: unknown IDs, objects
 * the caller may not see, and objects they see but may not read this way (a member's view of
 * an admin-only SAML provider) all answer the same.
 */
export async function loadNode(ctx: Context, id: string): Promise<object> {
  const load = id.includes(':') ? inRevision : nodeLoaders[kindOfId(id) as IdKind];
  if (!load) throw notFound('Node');
  try {
    const { typename, value } = await load(ctx, id);
    return { ...value, __typename: typename };
  } catch (error) {
    if (error instanceof AppError && error.code === 'FORBIDDEN' && error.message !== SSO_REQUIRED) throw notFound('Node');
    throw error;
  }
}

export const NODES_MAX = 100;

/** `nodes(ids)`: each ID's object, or null where `node` would answer NOT_FOUND; loaded together (batched by kind). */
export function loadNodes(ctx: Context, ids: readonly string[]): Promise<(object | null)[]> {
  if (ids.length > NODES_MAX) throw badRequest(`Invalid value for "ids": at most ${NODES_MAX} IDs`, 'ids');
  return Promise.all(
    ids.map((id) =>
      loadNode(ctx, id).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
        throw error;
      }),
    ),
  );
}
