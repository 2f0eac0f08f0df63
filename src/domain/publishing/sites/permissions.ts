/**
 * Who may do what with a site (docs/access.md#sites): grants of a role on the site to users and
 * teams of its organization (`site-permissions`, `site-users`), and who has access through any
 * path (organization role, the site's default level, grants). Granting needs `share` on the site
 * and changes access, so it holds the organization's access lock exclusively (guarded-write.ts).
 */
import { z } from 'zod';
import { Prisma, type SitePermission } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { maySite } from '../../access/capabilities.js';
import { inviteInput, requireGrantees, type Grantee, type InviteInput } from '../../access/grants.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { siteRoleSql } from '../../access/role-sql.js';
import { roleSchema, type Role } from '../../access/roles.js';
import { forbidden } from '../../../lib/errors.js';
import { parseInput } from '../../../lib/validation.js';
import { newId } from '../../kernel/ids.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { countRows } from '../../kernel/pagination/count.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { callerSeesTeam } from '../../people/teams/rows.js';
import { countMembersWithin, membersPage, type MemberFilter, type MemberRow, type MemberSubset } from '../../people/members/rows.js';
import { recordSiteEvent } from './events.js';
import type { SiteRow } from './rows.js';

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

export type SiteAudienceFilter = Omit<MemberFilter, 'role'> & { role?: Role | 'guest' | null; team?: string | null };

/**
 * Every member with access to the site and their role on it, as the member list sorts and
 * searches (`role`: their role on the site, or `guest` for members reached only by grants;
 * `team`: members of that team). Read from the Member indexes in the list's order, with the
 * holders of the site's grants as one uncorrelated set: a page reads about `limit` members (up to
 * the organization's size when a filter matches few), never the organization into memory.
 */
export async function siteAudience(db: Db, access: Access, siteId: string, filter: SiteAudienceFilter, args: PageArgs): Promise<CountedPage<SiteAudienceEntry>> {
  const site = await requireSiteAudience(access, siteId);
  const holders = sql`SELECT p."userId" FROM "SitePermission" p WHERE p."siteId" = ${siteId} AND p."userId" IS NOT NULL
    UNION SELECT t."userId" FROM "SitePermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" WHERE p."siteId" = ${siteId}`;
  const roleOn = sql`(SELECT ${siteRoleSql('m', 'x')} FROM "Site" x WHERE x."id" = ${siteId})`;
  const reached = site.defaultLevel === null ? sql`m."role" = 'admin'` : sql`m."role" IS NOT NULL`;
  const conditions = [sql`NOT m."disabled"`, sql`(${reached} OR m."userId" IN (${holders}))`];
  if (filter.role === 'guest') conditions.push(sql`m."role" IS NULL`);
  else if (filter.role) conditions.push(sql`${roleOn} = ${filter.role}`);
  if (filter.team) conditions.push(sql`m."userId" IN (SELECT tm."userId" FROM "TeamMember" tm WHERE tm."teamId" = ${filter.team})`);
  const within: MemberSubset = {
    tag: `site-audience:${siteId}:${filter.role ?? ''}:${filter.team ?? ''}`,
    conditions,
    columns: sql`, ${roleOn} AS "siteRole",
      (SELECT p."role"::text FROM "SitePermission" p WHERE p."siteId" = ${siteId} AND p."userId" = m."userId") AS "userGrant",
      (SELECT p."role"::text || ':' || p."teamId" FROM "SitePermission" p JOIN "TeamMember" t ON t."teamId" = p."teamId" AND t."userId" = m."userId"
        WHERE p."siteId" = ${siteId} ORDER BY p."role", p."teamId" LIMIT 1) AS "teamGrant"`,
  };
  const memberFilter: MemberFilter = { order: filter.order, search: filter.search, sort: filter.sort };
  const page = await membersPage<AudienceColumns>(db, site.organizationId, memberFilter, args, within);
  const rows = page.rows.map((m) => ({ ...m, origin: originOf(site, m) }));
  return counted({ ...page, rows, cursorOf: (row) => page.cursorOf(row as never) }, () => countMembersWithin(db, site.organizationId, memberFilter, within));
}
