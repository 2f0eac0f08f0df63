/** Organizations read with the caller's membership beside each row (one statement for both). */
import { LRUCache } from 'lru-cache';
import { Prisma, type Organization } from '../../../generated/prisma/client.js';
import { rowsById } from '../../kernel/sql.js';
import type { Role } from '../../access/roles.js';
import { byTimeThenId, childPagesJson, readPage, takeChildPages, type ChildPages, type Page, type PageArgs, type Queryable } from '../../kernel/pagination/keyset.js';
import { countRows } from '../../kernel/pagination/count.js';
import { reachSql, type Reach } from '../../access/reach.js';

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
 * Whether a caller was a guest of an organization when it was last read with a list (key: user
 * and organization IDs), per process and bounded. A hint only: it picks which list a statement
 * reads, and the statement checks it against the membership it reads (see loadOrganizationWith).
 */
const wasGuest = new LRUCache<string, boolean>({ max: 10_000 });

/**
 * An organization with, when the caller is an active member, the first page of one of its lists
 * read in the same statement (see ChildPages): `lists.member`'s for a member with an
 * organization role, `lists.guest`'s for a guest (what they see is read another way).
 *
 * The statement holds one of the two lists, the one the caller needed last time (a member's by
 * default), and reads it only if the membership it reads agrees; otherwise the page is read again
 * with the other list. PostgreSQL prepares every part of a statement before running it, used or
 * not: a statement holding both lists cost a member a tenth more for the guest's part it never ran.
 */
export async function loadOrganizationWith<Row>(
  db: Queryable,
  viewerId: string,
  id: string,
  lists: { member: ChildPages<Row>; guest: ChildPages<Row> },
): Promise<{ organization: OrganizationRow | null; page?: Page<Row> }> {
  const hint = `${viewerId}:${id}`;
  let guest = wasGuest.get(hint) ?? false;
  // A second read when the hint was wrong; a third only if the membership changed in between.
  for (let attempt = 0; ; attempt++) {
    const list = guest ? lists.guest : lists.member;
    const isThatKind = guest ? sql`viewer."role" IS NULL` : sql`viewer."role" IS NOT NULL`;
    const column = sql`, (CASE WHEN ${activeMembership} AND ${isThatKind} THEN ${childPagesJson(list, raw('o."id"'), { row: 'o', viewer: 'viewer' })} END)::text AS "_children"`;
    const [organization] = await db.$queryRaw<OrganizationRow[]>(sql`${selectOrganizations(viewerId, column)} WHERE o."id" = ${id}`);
    const matches = organization?.viewerIsMember && (organization.viewerRole === null) === guest;
    if (matches) return { organization, page: takeChildPages([organization], list).get(id) };
    if (organization) delete (organization as { _children?: unknown })._children;
    if (!organization?.viewerIsMember || attempt === 2) return { organization: organization ?? null };
    guest = !guest;
    wasGuest.set(hint, guest);
  }
}

/** Organizations by ID, with the caller's membership. */
export const loadOrganizations = rowsById<OrganizationRow>('o."id"', (viewer) => selectOrganizations(viewer));

const byJoining = (viewerId: string) => byTimeThenId<OrganizationRow>(`organizations:${viewerId}`, 'viewer."joinedAt"', 'o."id"', (o) => [o.viewerJoinedAt!, o.id]);

const activeMembership = sql`viewer."userId" IS NOT NULL AND NOT viewer."disabled"`;

/** Organizations the caller is an active member of (those their credential reaches), in order of joining. */
export function viewerOrganizationsPage(db: Queryable, viewerId: string, reach: Reach, args: PageArgs): Promise<Page<OrganizationRow>> {
  const conditions = reach.confinedTo ? [activeMembership, reachSql(reach, 'o."id"')] : [activeMembership];
  return readPage(db, selectOrganizations(viewerId), conditions, byJoining(viewerId), args);
}

export function countViewerOrganizations(db: Queryable, viewerId: string, reach: Reach): Promise<number> {
  return countRows(db, sql`"Member" WHERE "userId" = ${viewerId} AND NOT "disabled" AND ${reachSql(reach, '"organizationId"')}`);
}
