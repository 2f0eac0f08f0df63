/**
 * Who may do what with a site (docs/access.md#sites): grants of a role on the site to users and
 * teams of its organization (`site-permissions`, `site-users`), and who has access through any
 * path (organization role, the site's default level, grants). Granting needs `share` on the site
 * and changes access, so it holds the organization's access lock exclusively (guarded-write.ts).
 */
import { z } from 'zod';
import { Prisma, type SitePermission } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { maySite } from '../../../access/capabilities.js';
import { inviteInput, requireGrantees, type Grantee, type InviteInput } from '../../../access/grants.js';
import { guardedWrite } from '../../../access/guarded-write.js';
import { siteRoleSql } from '../../../access/role-sql.js';
import { highest, isRole, ROLES, roleSchema, type Role } from '../../../access/roles.js';
import { forbidden } from '../../../../lib/errors.js';
import { parseInput } from '../../../../lib/validation.js';
import { newId } from '../../../kernel/ids.js';
import { counted, type CountedPage } from '../../../kernel/pagination/counted.js';
import { countRows } from '../../../kernel/pagination/count.js';
import { byTimeThenId, readPage, type PageArgs } from '../../../kernel/pagination/keyset.js';
import { callerSeesTeam } from '../../../people/teams/rows.js';
import { countMembersWithin, membersPage, type MemberFilter, type MemberRow, type MemberSubset } from '../../../people/members/rows.js';
import { recordSiteEvent } from '../events.js';
import type { SiteRow } from '../rows.js';

type Tx = Prisma.TransactionClient;
type Sql = Prisma.Sql;
const { sql } = Prisma;

/** A change of the site's grants: `share` on it, checked again inside the transaction under the exclusive access lock. */
function siteGrantWrite<T>(db: Db, access: Access, siteId: string, work: (tx: Tx, site: SiteRow) => Promise<T>): Promise<T> {
  return guardedWrite(db, { access, organizations: (site) => [site.organizationId], mode: 'change', check: (a) => a.requireSite(siteId, 'share') }, work);
}

const grantKey = (siteId: string, g: Grantee): Prisma.SitePermissionWhereUniqueInput =>
  g.kind === 'user' ? { siteId_userId: { siteId, userId: g.id } } : { siteId_teamId: { siteId, teamId: g.id } };

async function upsertGrant(tx: Tx, site: SiteRow, g: Grantee, role: Role): Promise<void> {
  const holder = g.kind === 'user' ? { userId: g.id } : { teamId: g.id };
  await tx.sitePermission.upsert({ where: grantKey(site.id, g), create: { id: newId('SitePermission'), organizationId: site.organizationId, siteId: site.id, ...holder, role }, update: { role } });
}

const holderData = (g: Grantee) => (g.kind === 'user' ? { userId: g.id } : { teamId: g.id });

/** Grants `role` on the site to each user and team of its organization, replacing a previous grant of theirs (404 naming the first unknown one). */
export async function inviteToSite(db: Db, access: Access, siteId: string, raw: InviteInput): Promise<void> {
  const data = parseInput(inviteInput, raw);
  const users = [...new Set(data.users ?? [])];
  const teams = [...new Set(data.teams ?? [])];
  const grantees: Grantee[] = [...users.map((id) => ({ kind: 'user' as const, id })), ...teams.map((id) => ({ kind: 'team' as const, id }))];
  await siteGrantWrite(db, access, siteId, async (tx, site) => {
    await requireGrantees(tx, site.organizationId, grantees);
    for (const g of grantees) await upsertGrant(tx, site, g, data.role);
    await recordSiteEvent(tx, access, site, 'sitePermissionsGranted', site.id, { users, teams, role: data.role });
  });
}

/**
 * Sets one user's or team's grant on the site: a role creates or replaces it, null removes it,
 * undefined changes nothing. Answers whether a grant was removed (REST: 205, else 204).
 */
export async function setSiteGrant(db: Db, access: Access, siteId: string, grantee: Grantee, rawRole: Role | null | undefined): Promise<{ removed: boolean }> {
  const { role } = parseInput(z.object({ role: roleSchema.nullish() }), { role: rawRole });
  return siteGrantWrite(db, access, siteId, async (tx, site) => {
    const holder = grantee.kind === 'user' ? { userId: grantee.id } : { teamId: grantee.id };
    if (role === null) {
      const { count } = await tx.sitePermission.deleteMany({ where: { siteId: site.id, ...holderData(grantee) } });
      if (count) await recordSiteEvent(tx, access, site, 'sitePermissionRemoved', site.id, holder);
      return { removed: count > 0 };
    }
    await requireGrantees(tx, site.organizationId, [grantee]);
    if (role) {
      await upsertGrant(tx, site, grantee, role);
      await recordSiteEvent(tx, access, site, 'sitePermissionUpdated', site.id, { ...holder, role });
    }
    return { removed: false };
  });
}

/**
 * A site whose grants and audience the caller may list: members with an organization role who
 * see the site, and whoever may `share` it (a guest granted `admin`); other guests get 403.
 */
export async function requireSiteAudience(access: Access, siteId: string): Promise<SiteRow> {
  const site = await access.requireSite(siteId, 'view');
  const { role } = await access.orgRole(site.organizationId);
  if (role === null && !maySite('share', site.viewerRole)) throw forbidden();
  return site;
}

export type SiteGrant = Omit<SitePermission, 'role'> & { role: Role };

const selectGrants = sql`SELECT p."id", p."organizationId", p."siteId", p."userId", p."teamId", p."role"::text AS "role", p."createdAt" FROM "SitePermission" p`;
const byGrantDate = (tag: string) => byTimeThenId<SiteGrant>(tag, 'p."createdAt"', 'p."id"', (p) => [p.createdAt, p.id]);

async function grantsPage(db: Db, siteId: string, tag: string, conditions: Sql[], args: PageArgs): Promise<CountedPage<SiteGrant>> {
  const page = await readPage<SiteGrant>(db, selectGrants, conditions, byGrantDate(`${tag}:${siteId}`), args);
  return counted(page, () => countRows(db, sql`"SitePermission" p WHERE ${Prisma.join(conditions, ' AND ')}`));
}

/** Users granted a role on the site, oldest grant first. */
export async function siteUserGrants(db: Db, access: Access, siteId: string, args: PageArgs): Promise<CountedPage<SiteGrant & { userId: string }>> {
  await requireSiteAudience(access, siteId);
  return grantsPage(db, siteId, 'site-users', [sql`p."siteId" = ${siteId}`, sql`p."userId" IS NOT NULL`], args) as Promise<CountedPage<SiteGrant & { userId: string }>>;
}

/** Teams granted a role on the site that the caller can see, oldest grant first. */
export async function siteTeamGrants(db: Db, access: Access, siteId: string, args: PageArgs): Promise<CountedPage<SiteGrant & { teamId: string }>> {
  await requireSiteAudience(access, siteId);
  const conditions = [sql`p."siteId" = ${siteId}`, sql`p."teamId" IS NOT NULL`, sql`EXISTS (SELECT 1 FROM "Team" t WHERE t."id" = p."teamId" AND ${callerSeesTeam('t', access.userId)})`];
  return grantsPage(db, siteId, 'site-teams', conditions, args) as Promise<CountedPage<SiteGrant & { teamId: string }>>;
}

/** Where a member's role on a site comes from (the public document's UserSitePermissionOrigin). */
export type SiteRoleOrigin = { type: 'organization' } | { type: 'site'; reason: 'member' | 'team' | 'default'; teamId?: string };

export type SiteAudienceEntry = MemberRow & { siteRole: Role; origin: SiteRoleOrigin };

type AudienceColumns = { siteRole: Role; userGrant: Role | null; teamGrant: string | null };

/** The origin of a member's role: a grant to them, to a team of theirs, the default level, or their organization role. */
function originOf(site: SiteRow, m: MemberRow & AudienceColumns): SiteRoleOrigin {
  if (m.role === 'admin') return { type: 'organization' };
  if (m.userGrant === m.siteRole) return { type: 'site', reason: 'member' };
  const [teamRole, teamId] = m.teamGrant?.split(':') ?? [];
  if (teamRole === m.siteRole) return { type: 'site', reason: 'team', teamId };
  if (m.role === null || site.defaultLevel === null || site.defaultLevel === 'inherit' || m.role === m.siteRole) return { type: 'organization' };
  return { type: 'site', reason: 'default' };
}

/** A member's role on a site from their organization role alone (no grant): role-sql.ts siteRoleSql without the grants. */
function roleWithoutGrants(orgRole: Role, defaultLevel: string | null): Role | null {
  if (orgRole === 'admin') return 'admin';
  if (defaultLevel === null) return null;
  return defaultLevel === 'inherit' || !isRole(defaultLevel) ? orgRole : highest([orgRole, defaultLevel]);
}

export type SiteAudienceFilter = Omit<MemberFilter, 'role'> & { role?: Role | 'guest' | null; team?: string | null };

/**
 * Every member with access to the site and their role on it, as the member list sorts and
 * searches (`role`: their role on the site, or `guest` for members reached only by grants;
 * `team`: members of that team). The holders of the site's grants (few) are read first, with
 * their role; everyone else's access and role follow from their organization role and the
 * site's default level, so the page reads the Member index of its sort with a column test per
 * member — about `limit` members, or further when a filter matches few — and never computes a
 * role per member nor reads the organization into memory. The unfiltered total is the
 * organization's counter of members with a role plus the guests among the holders.
 */
export async function siteAudience(db: Db, access: Access, siteId: string, filter: SiteAudienceFilter, args: PageArgs): Promise<CountedPage<SiteAudienceEntry>> {
  const site = await requireSiteAudience(access, siteId);
  const held = await db.$queryRaw<{ userId: string; orgRole: Role | null; disabled: boolean; role: Role | null }[]>(sql`
    SELECT m."userId", m."role"::text AS "orgRole", m."disabled", ${siteRoleSql('m', 'x')} AS "role"
    FROM "Site" x JOIN "Member" m ON m."organizationId" = x."organizationId"
    WHERE x."id" = ${siteId} AND m."userId" IN (
      SELECT p."userId" FROM "SitePermission" p WHERE p."siteId" = ${siteId} AND p."userId" IS NOT NULL
      UNION SELECT t."userId" FROM "SitePermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" WHERE p."siteId" = ${siteId})`);
  const holders = held.map((h) => h.userId);
  /** Members whose organization role alone gives them one of `roles` on the site. */
  const byOrgRole = (roles: (Role | null)[]) => {
    const orgRoles = ROLES.filter((r) => roles.includes(roleWithoutGrants(r, site.defaultLevel)));
    return orgRoles.length ? sql`m."role" IN (${Prisma.join(orgRoles.map((r) => sql`${r}::"Role"`))})` : sql`false`;
  };
  const grantedHere = (ids: string[]) => sql`m."userId" = ANY(${ids}::text[])`;
  const notHolder = sql`NOT m."userId" = ANY(${holders}::text[])`;
  const conditions = [sql`NOT m."disabled"`];
  if (filter.role === 'guest') conditions.push(sql`m."role" IS NULL`, grantedHere(held.filter((h) => h.orgRole === null && h.role).map((h) => h.userId)));
  else if (filter.role) conditions.push(sql`(${grantedHere(held.filter((h) => h.role === filter.role).map((h) => h.userId))} OR (${notHolder} AND ${byOrgRole([filter.role])}))`);
  else conditions.push(sql`(${grantedHere(held.filter((h) => h.role).map((h) => h.userId))} OR (${notHolder} AND ${byOrgRole([...ROLES])}))`);
  if (filter.team) conditions.push(sql`m."userId" IN (SELECT tm."userId" FROM "TeamMember" tm WHERE tm."teamId" = ${filter.team})`);
  const within: MemberSubset = {
    tag: `site-audience:${siteId}:${filter.role ?? ''}:${filter.team ?? ''}`,
    conditions,
    columns: sql`, (SELECT ${siteRoleSql('m', 'x')} FROM "Site" x WHERE x."id" = ${siteId}) AS "siteRole",
      (SELECT p."role"::text FROM "SitePermission" p WHERE p."siteId" = ${siteId} AND p."userId" = m."userId") AS "userGrant",
      (SELECT p."role"::text || ':' || p."teamId" FROM "SitePermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" AND t."userId" = m."userId"
        WHERE p."siteId" = ${siteId} ORDER BY p."role", p."teamId" LIMIT 1) AS "teamGrant"`,
  };
  const memberFilter: MemberFilter = { order: filter.order, search: filter.search, sort: filter.sort };
  const page = await membersPage<AudienceColumns>(db, site.organizationId, memberFilter, args, within);
  const rows = page.rows.map((m) => ({ ...m, origin: originOf(site, m) }));
  const unfiltered = !filter.role && !filter.team && !filter.search?.trim() && filter.sort !== 'lastSeenAt' && site.defaultLevel !== null;
  const total = async () => {
    if (!unfiltered) return countMembersWithin(db, site.organizationId, memberFilter, within);
    const org = await access.loaders.organization.load(site.organizationId);
    return (org?.roleMemberCount ?? 0) + held.filter((h) => h.orgRole === null && !h.disabled && h.role).length;
  };
  return counted({ ...page, rows, cursorOf: (row) => page.cursorOf(row as never) }, total);
}
