/**
 * Loaders of rows by ID for `node(id)` / `nodes(ids)` (src/schema/node-loaders.ts): one statement
 * per kind for every ID of that kind a request asks for, whatever their number. No caller here:
 * the node resolvers check access with the same rules as each object's own field.
 */
import type { Db } from '../../db/client.js';
import type { CustomFont, Job, LinkInvite, MemberInvite, OpenAPISpec, SamlProvider, SiteExternalLink, SiteRedirect, SiteSectionGroup, SiteShareLink, TranslationSettings } from '../../generated/prisma/client.js';
import { Prisma, type ContentEntry } from '../../generated/prisma/client.js';
import { reviewsByIds, type ReviewRow } from '../versions/change-requests/review-rows.js';
import { commentsByIds, repliesByIds, type CommentRow, type ReplyRow } from '../comments/rows.js';
import type { Entry, EntityKind } from '../versions/revisions/entries.js';
import type { RevisionScope } from '../versions/revisions/scope.js';
import { visibleEntries } from '../versions/revisions/visible.js';
import { byId } from './keys.js';
import type { LoaderRegistry } from './registry.js';
import { TOKEN_FIELDS } from '../people/identity/tokens.js';

/** A pending e-mail invite with its invitee's e-mail (email-invites.ts PendingInvite). */
type PendingInvite = Omit<MemberInvite, 'digest'> & { email: string };

type ApiTokenRecord = { id: string; userId: string; name: string; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null; organizationId: string | null };

/** Key of `revisionEntity`: a page, file or reusable content (`kind`) of a revision. */
export const revisionEntityKey = (revisionId: string, kind: EntityKind, entityId: string) => `${revisionId}|${kind}|${entityId}`;

export function nodeLoaders(db: Db, registry: LoaderRegistry) {
  const rows = <T extends { id: string }>(read: (ids: string[]) => Promise<T[]>) => registry.track<string, T | null>(async (ids) => byId(await read([...ids]), ids));
  return {
    siteSectionGroup: rows<SiteSectionGroup>((ids) => db.siteSectionGroup.findMany({ where: { id: { in: ids } } })),
    siteShareLink: rows<SiteShareLink>((ids) => db.siteShareLink.findMany({ where: { id: { in: ids } } })),
    siteRedirect: rows<SiteRedirect>((ids) => db.siteRedirect.findMany({ where: { id: { in: ids } } })),
    siteExternalLink: rows<SiteExternalLink>((ids) => db.siteExternalLink.findMany({ where: { id: { in: ids } } })),
    job: rows<Job>((ids) => db.job.findMany({ where: { id: { in: ids } } })),
    openAPISpec: rows<OpenAPISpec>((ids) => db.openAPISpec.findMany({ where: { id: { in: ids } } })),
    samlProvider: rows<SamlProvider>((ids) => db.samlProvider.findMany({ where: { id: { in: ids } } })),
    customFont: rows<CustomFont>((ids) => db.customFont.findMany({ where: { id: { in: ids } } })),
    linkInvite: rows<LinkInvite>((ids) => db.linkInvite.findMany({ where: { id: { in: ids } } })),
    translationSettings: rows<TranslationSettings>((ids) => db.translationSettings.findMany({ where: { id: { in: ids } } })),
    changeRequestReview: rows<ReviewRow>((ids) => reviewsByIds(db, ids)),
    comment: rows<CommentRow>((ids) => commentsByIds(db, ids)),
    commentReply: rows<ReplyRow>((ids) => repliesByIds(db, ids)),
    /** API tokens (never their digest), with their user: only their owner reaches them. */
    apiToken: rows<ApiTokenRecord>((ids) => db.apiToken.findMany({ where: { id: { in: ids } }, select: TOKEN_FIELDS })),
    /** Pending e-mail invites, with the invitee's e-mail (as `Organization.memberInvites` lists them). */
    memberInvite: rows<PendingInvite>((ids) =>
      db.$queryRaw<PendingInvite[]>(Prisma.sql`SELECT i."id", i."organizationId", i."userId", i."role"::text AS "role", i."sso", i."invitedById", i."createdAt", i."expiresAt", u."email"
        FROM "MemberInvite" i JOIN "User" u ON u."id" = i."userId" WHERE i."id" = ANY(${ids}::text[])`),
    ),
    /** By `revisionEntityKey`: the revisions' scopes, then every entity asked for, in two statements (one UNION ALL part per revision and kind). */
    revisionEntity: registry.track<string, Entry | null>(async (keys) => {
      const groups = new Map<string, { revisionId: string; kind: EntityKind; ids: string[] }>();
      for (const key of keys) {
        const [revisionId, kind, entityId] = key.split('|') as [string, EntityKind, string];
        const group = groups.get(`${revisionId}|${kind}`) ?? { revisionId, kind, ids: [] };
        group.ids.push(entityId);
        groups.set(`${revisionId}|${kind}`, group);
      }
      const revisionIds = [...new Set([...groups.values()].map((g) => g.revisionId))];
      const scopes = new Map((await db.$queryRaw<RevisionScope[]>(Prisma.sql`SELECT "id", "spaceId", "lineId", "seq", "baseSeq" FROM "Revision" WHERE "id" = ANY(${revisionIds}::text[])`)).map((s) => [s.id, s]));
      const parts = [...groups.values()].flatMap(({ revisionId, kind, ids }) => {
        const scope = scopes.get(revisionId);
        const where = [Prisma.sql`e."kind" = ${kind}`, Prisma.sql`e."entityId" = ANY(${ids}::text[])`];
        return scope ? [Prisma.sql`SELECT ${revisionId}::text AS "revisionId", v.* FROM (${visibleEntries(scope, where)}) v`] : [];
      });
      const rows = parts.length ? await db.$queryRaw<(ContentEntry & { revisionId: string })[]>(Prisma.join(parts, ' UNION ALL ')) : [];
      const found = new Map<string, Entry>();
      for (const { revisionId, id: _id, ...entry } of rows) found.set(revisionEntityKey(revisionId, entry.kind as EntityKind, entry.entityId), entry as Entry);
      return keys.map((k) => found.get(k) ?? null);
    }),
  };
}
