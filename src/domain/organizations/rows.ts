/** Organizations read with the caller's membership beside each row (one statement for both). */
import { Prisma, type Organization } from '../../generated/prisma/client.js';
import { rowsById } from '../sql.js';
import type { Role } from '../access/roles.js';
import { byTimeThenId, childPagesJson, readPage, takeChildPages, type ChildPages, type Page, type PageArgs, type Queryable } from '../pagination/keyset.js';
import { countRows } from '../pagination/count.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** An organization, whether the caller is an active member of it, and their role there (null: guest). */
export type OrganizationRow = Organization & { viewerIsMember: boolean; viewerRole: Role | null; viewerJoinedAt: Date | null; viewerSso: boolean; viewerOwnsTeam: boolean };

/**
 * Every column, named: an organization statement is prepared once per connection, and `o.*` would
 * change its result type (an error, once) when a migration adds a column under a running server.
 */
const COLUMNS = raw(
  Object.keys({
    id: 1, title: 1, type: 1, useCase: 1, communityType: 1, hostname: 1, emailDomains: 1, defaultRole: 1, defaultContentSite: 1,
    logoURL: 1, sso: 1, ai: 1, inviteLinks: 1, plan: 1, createdAt: 1, updatedAt: 1, spaceCount: 1, collectionCount: 1,
    rootCollectionCount: 1, memberCount: 1, roleMemberCount: 1, seenMemberCount: 1, teamCount: 1, mergeRules: 1,
  } satisfies Record<keyof Organization, 1>)
    .map((column) => `o."${column}"`)
    .join(', '),
);

function selectOrganizations(viewerId: string | Sql, extra: Sql = sql``): Sql {
  return sql`SELECT ${COLUMNS} ${extra}, (viewer."userId" IS NOT NULL AND NOT viewer."disabled") AS "viewerIsMember",
      CASE WHEN viewer."disabled" THEN NULL ELSE viewer."role"::text END AS "viewerRole", viewer."joinedAt" AS "viewerJoinedAt", viewer."sso" IS TRUE AS "viewerSso",
      (NOT viewer."disabled" AND EXISTS (SELECT 1 FROM "TeamMember" tm JOIN "Team" t ON t."id" = tm."teamId"
        WHERE tm."userId" = viewer."userId" AND tm."role" = 'owner' AND t."organizationId" = o."id")) IS TRUE AS "viewerOwnsTeam"
    FROM "Organization" o
    LEFT JOIN "Member" viewer ON viewer."organizationId" = o."id" AND viewer."userId" = ${viewerId}`;
}

/**
 * An organization with, when the caller is an active member, the first page of one of its lists
 * read in the same statement (see ChildPages): `lists.member`'s for a member with an
 * organization role, `lists.guest`'s for a guest (what they see is read another way).
 */
export async function loadOrganizationWith<Row>(
  db: Queryable,
  viewerId: string,
  id: string,
  lists: { member: ChildPages<Row>; guest: ChildPages<Row> },
): Promise<{ organization: OrganizationRow | null; page?: Page<Row> }> {
  const parent = raw('o."id"');
  const outer = { row: 'o', viewer: 'viewer' };
  const list = sql`, (CASE WHEN NOT (${activeMembership}) THEN NULL
      WHEN viewer."role" IS NULL THEN ${childPagesJson(lists.guest, parent, outer)} ELSE ${childPagesJson(lists.member, parent, outer)} END)::text AS "_children"`;
  const [organization] = await db.$queryRaw<OrganizationRow[]>(sql`${selectOrganizations(viewerId, list)} WHERE o."id" = ${id}`);
  if (!organization?.viewerIsMember) {
    if (organization) delete (organization as { _children?: unknown })._children;
    return { organization: organization ?? null };
  }
  const page = takeChildPages([organization], organization.viewerRole === null ? lists.guest : lists.member).get(id);
  return { organization, page };
}

/** Organizations by ID, with the caller's membership. */
export const loadOrganizations = rowsById<OrganizationRow>('o."id"', (viewer) => selectOrganizations(viewer));

const byJoining = (viewerId: string) => byTimeThenId<OrganizationRow>(`organizations:${viewerId}`, 'viewer."joinedAt"', 'o."id"', (o) => [o.viewerJoinedAt!, o.id]);

const activeMembership = sql`viewer."userId" IS NOT NULL AND NOT viewer."disabled"`;

/** Organizations the caller is an active member of, in order of joining. */
export function viewerOrganizationsPage(db: Queryable, viewerId: string, args: PageArgs): Promise<Page<OrganizationRow>> {
  return readPage(db, selectOrganizations(viewerId), [activeMembership], byJoining(viewerId), args);
}

export function countViewerOrganizations(db: Queryable, viewerId: string): Promise<number> {
  return countRows(db, sql`"Member" WHERE "userId" = ${viewerId} AND NOT "disabled"`);
}
