/**
 * Effective roles, decided in SQL beside the rows they are about, so a page of a list reads its
 * rows and their roles in one statement and nothing else of the organization.
 *
 * A member's role on a space is the highest of: their organization role; grants on the space;
 * grants on any ancestor collection; the same grants made to their teams; the space's
 * `defaultLevel` unless it is `private` (members with an organization role only); and, for an
 * `in-collection` space, the parent collection's `defaultLevel` (likewise). On a collection: the
 * organization role, grants on it and its ancestors (direct or through teams), and its
 * `defaultLevel` for members with an organization role. Disabled members and non-members have
 * no role; a space deleted longer than the trash retention has none either.
 *
 * The expressions take aliases of rows already in the query: `m` a `Member` row (the subject:
 * the caller, or each member for "who has access"; null when not a member), `s` a `Space` row
 * and `pc` its parent `Collection` row (null at the root), or `c` a `Collection` row.
 * PostgreSQL orders enum values as declared — admin first — so the highest role is the least.
 */
import { Prisma } from '../../generated/prisma/client.js';
import { TRASH_RETENTION_MS } from '../content/spaces/lifecycle.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** Highest role granted to the member `m` or their teams on the space `spaceId` or a collection of `ancestors`. */
function grantedRole(m: string, spaceId: Sql | null, ancestors: Sql): Sql {
  const user = raw(`${m}."userId"`);
  const onSpace = spaceId
    ? sql`SELECT p."role" FROM "ContentPermission" p WHERE p."spaceId" = ${spaceId} AND p."userId" = ${user}
          UNION ALL
          SELECT p."role" FROM "ContentPermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" AND t."userId" = ${user}
          WHERE p."spaceId" = ${spaceId}
          UNION ALL`
    : sql``;
  return sql`(SELECT min(g."role") FROM (
    ${onSpace}
    SELECT p."role" FROM "ContentPermission" p WHERE p."collectionId" = ANY(${ancestors}) AND p."userId" = ${user}
    UNION ALL
    SELECT p."role" FROM "ContentPermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" AND t."userId" = ${user}
    WHERE p."collectionId" = ANY(${ancestors})
  ) g)`;
}

/** No role for non-members and disabled members; everything for organization admins (no grant lookups). */
function roleOf(m: string, none: Sql, otherwise: Sql): Sql {
  const member = raw(m);
  return sql`(CASE WHEN ${member}."userId" IS NULL OR ${member}."disabled" OR ${none} THEN NULL
    WHEN ${member}."role" = 'admin' THEN 'admin'
    ELSE (${otherwise})::text END)`;
}

/** A space deleted longer than the trash retention: nobody has a role on it any more. */
const purgedSql = (s: string) => sql`${raw(s)}."deletedAt" < now() - (${TRASH_RETENTION_MS} * interval '1 millisecond')`;

/** What spaceRoleUnlessGrantsSql answers when the role depends on more than the membership. */
export const UNRESOLVED_ROLE = 'unresolved';

/**
 * The member `m`'s role on the space `s` when their membership alone decides it — none, or
 * `admin` — and otherwise UNRESOLVED_ROLE: spaceRoleSql without the parent collection and the
 * grants, for reading spaces by ID when the caller is likely an organization admin (see
 * spaces/rows.ts loadSpaces). PostgreSQL prepares a statement's grant lookups even when it never
 * runs them.
 */
export function spaceRoleUnlessGrantsSql(m: string, s: string): Sql {
  return roleOf(m, purgedSql(s), raw(`'${UNRESOLVED_ROLE}'`));
}

export function spaceRoleSql(m: string, s: string, pc: string): Sql {
  const [member, space, parent] = [raw(m), raw(s), raw(pc)];
  return roleOf(
    m,
    purgedSql(s),
    sql`LEAST(
      ${member}."role",
      ${grantedRole(m, raw(`${s}."id"`), raw(`${pc}."ancestors"`))},
      CASE WHEN ${member}."role" IS NOT NULL AND ${space}."visibility" <> 'private' THEN ${space}."defaultLevel" END,
      CASE WHEN ${member}."role" IS NOT NULL AND ${space}."visibility" = 'in-collection' THEN ${parent}."defaultLevel" END
    )`,
  );
}

export function collectionRoleSql(m: string, c: string): Sql {
  const [member, collection] = [raw(m), raw(c)];
  return roleOf(
    m,
    sql`false`,
    sql`LEAST(
      ${member}."role",
      ${grantedRole(m, null, raw(`${c}."ancestors"`))},
      CASE WHEN ${member}."role" IS NOT NULL THEN ${collection}."defaultLevel" END
    )`,
  );
}

/** IDs of spaces (`"spaceId"`) or collections (`"collectionId"`) granted to `userId` or their teams. */
function grantedTargets(column: 'spaceId' | 'collectionId', userId: string): Sql {
  const target = raw(`p."${column}"`);
  return sql`SELECT ${target} FROM "ContentPermission" p WHERE p."userId" = ${userId} AND ${target} IS NOT NULL
    UNION ALL
    SELECT ${target} FROM "ContentPermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId"
    WHERE t."userId" = ${userId} AND ${target} IS NOT NULL`;
}

/**
 * What a guest (a member without an organization role) can see is what their grants reach:
 * these predicates find those rows from the grants, instead of testing every row of the
 * organization. Members with a role see every space and collection: they need no predicate.
 */
export function guestSeesSpace(s: string, userId: string): Sql {
  // One IN over a union (not two ORed INs): PostgreSQL turns it into a join that starts from the
  // grants, instead of testing every space of the organization in list order.
  return sql`${raw(s)}."id" IN (${guestSpaceIds(userId)})`;
}

/** IDs of the spaces a guest's grants reach: granted, or under a granted collection (an ID may repeat). */
export function guestSpaceIds(userId: string): Sql {
  return sql`${grantedTargets('spaceId', userId)}
    UNION ALL
    SELECT x."id" FROM "Space" x JOIN "Collection" c ON c."id" = x."parentId" WHERE c."ancestors" && ARRAY(${grantedTargets('collectionId', userId)})`;
}

export function guestSeesCollection(c: string, userId: string): Sql {
  return sql`${raw(c)}."ancestors" && ARRAY(${grantedTargets('collectionId', userId)})`;
}

/**
 * The member `m`'s role on the site `s` (docs/access.md#sites): organization admins administer
 * every site; otherwise the highest of their organization role (unless the site's `defaultLevel`
 * is null), the `defaultLevel` when it is a role (members with an organization role only), and
 * the site's grants to them or their teams. Guests have only the grants.
 */
export function siteRoleSql(m: string, s: string): Sql {
  const [member, site, user] = [raw(m), raw(s), raw(`${m}."userId"`)];
  return roleOf(
    m,
    sql`false`,
    sql`LEAST(
      CASE WHEN ${member}."role" IS NOT NULL AND ${site}."defaultLevel" IS NOT NULL THEN ${member}."role" END,
      CASE WHEN ${member}."role" IS NOT NULL AND ${site}."defaultLevel" <> 'inherit' THEN ${site}."defaultLevel"::"Role" END,
      (SELECT min(g."role") FROM (
        SELECT p."role" FROM "SitePermission" p WHERE p."siteId" = ${site}."id" AND p."userId" = ${user}
        UNION ALL
        SELECT p."role" FROM "SitePermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" AND t."userId" = ${user} WHERE p."siteId" = ${site}."id"
      ) g)
    )`,
  );
}
