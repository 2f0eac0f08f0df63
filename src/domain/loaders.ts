/**
 * Request-scoped DataLoaders: every read of the graph goes through these, so a nested query
 * costs a fixed number of SQL statements whatever the list sizes.
 */
import DataLoader from 'dataloader';
import type { Db } from '../db/client.js';
import type { Collection, ContentPermission, Member, Organization, RevisionPage, Space, Team, TeamMember, User } from '../generated/prisma/client.js';
import { loadMembersAccess, type MemberAccess } from './permissions/audience.js';
import { buildOrgAccessData, type OrgAccessData } from './permissions/effective-role.js';

function byId<T extends { id: string }>(rows: T[], keys: readonly string[]): (T | null)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return keys.map((k) => map.get(k) ?? null);
}

function groupBy<T>(rows: T[], keyOf: (row: T) => string | null, keys: readonly string[]): T[][] {
  const map = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) map.get(keyOf(row) ?? '')?.push(row);
  return keys.map((k) => map.get(k) ?? []);
}

export type SpaceActivity = { comments: number; changeRequests: number; changeRequestsOpen: number; changeRequestsDraft: number };

export const memberKey = (organizationId: string, userId: string) => `${organizationId}:${userId}`;
export const teamMemberKey = (teamId: string, userId: string) => `${teamId}:${userId}`;
export const revisionPageKey = (revisionId: string, pageId: string) => `${revisionId}:${pageId}`;
const splitKey = (key: string) => key.split(':') as [string, string];

export function createLoaders(db: Db, viewerId: string) {
  const loaders = {
    organization: new DataLoader<string, Organization | null>(async (ids) =>
      byId(await db.organization.findMany({ where: { id: { in: [...ids] } } }), ids),
    ),
    user: new DataLoader<string, User | null>(async (ids) => byId(await db.user.findMany({ where: { id: { in: [...ids] } } }), ids)),
    /** Includes deleted spaces; callers decide what a deleted space means to them. */
    space: new DataLoader<string, Space | null>(async (ids) => byId(await db.space.findMany({ where: { id: { in: [...ids] } } }), ids)),
    collection: new DataLoader<string, Collection | null>(async (ids) =>
      byId(await db.collection.findMany({ where: { id: { in: [...ids] } } }), ids),
    ),
    team: new DataLoader<string, Team | null>(async (ids) => byId(await db.team.findMany({ where: { id: { in: [...ids] } } }), ids)),
    member: new DataLoader<string, Member | null>(async (keys) => {
      const pairs = keys.map(splitKey);
      const rows = await db.member.findMany({
        where: { OR: pairs.map(([organizationId, userId]) => ({ organizationId, userId })) },
      });
      const map = new Map(rows.map((r) => [memberKey(r.organizationId, r.userId), r]));
      return keys.map((k) => map.get(k) ?? null);
    }),
    /** The caller's access data for each organization (see effective-role.ts). */
    orgAccess: new DataLoader<string, OrgAccessData>(async (orgIds) => {
      const ids = [...orgIds];
      const [members, collections, grants] = await Promise.all([
        db.member.findMany({ where: { userId: viewerId, organizationId: { in: ids } } }),
        db.collection.findMany({
          where: { organizationId: { in: ids } },
          select: { id: true, organizationId: true, parentId: true, defaultLevel: true },
        }),
        db.contentPermission.findMany({
          where: {
            organizationId: { in: ids },
            OR: [{ userId: viewerId }, { team: { members: { some: { userId: viewerId } } } }],
          },
          select: { organizationId: true, spaceId: true, collectionId: true, role: true },
        }),
      ]);
      return ids.map((organizationId) =>
        buildOrgAccessData(
          organizationId,
          members.find((m) => m.organizationId === organizationId) ?? null,
          collections.filter((c) => c.organizationId === organizationId),
          grants.filter((g) => g.organizationId === organizationId),
        ),
      );
    }),
    /** Live spaces of each organization, oldest first. */
    spacesInOrganization: new DataLoader<string, Space[]>(async (ids) =>
      groupBy(
        await db.space.findMany({
          where: { organizationId: { in: [...ids] }, deletedAt: null },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        }),
        (s) => s.organizationId,
        ids,
      ),
    ),
    /** All collections of each organization, in tree order within a parent. */
    collectionsInOrganization: new DataLoader<string, Collection[]>(async (ids) =>
      groupBy(
        await db.collection.findMany({
          where: { organizationId: { in: [...ids] } },
          orderBy: [{ position: 'asc' }, { createdAt: 'asc' }],
        }),
        (c) => c.organizationId,
        ids,
      ),
    ),
    /** Live (not deleted) spaces directly inside each collection, in order. */
    spacesInCollection: new DataLoader<string, Space[]>(async (ids) =>
      groupBy(
        await db.space.findMany({
          where: { parentId: { in: [...ids] }, deletedAt: null },
          orderBy: [{ position: 'asc' }, { createdAt: 'asc' }],
        }),
        (s) => s.parentId,
        ids,
      ),
    ),
    collectionsInCollection: new DataLoader<string, Collection[]>(async (ids) =>
      groupBy(
        await db.collection.findMany({ where: { parentId: { in: [...ids] } }, orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] }),
        (c) => c.parentId,
        ids,
      ),
    ),
    /** Grants to teams on each space or collection. */
    teamGrants: new DataLoader<string, ContentPermission[]>(async (ids) =>
      groupBy(
        await db.contentPermission.findMany({
          where: { teamId: { not: null }, OR: [{ spaceId: { in: [...ids] } }, { collectionId: { in: [...ids] } }] },
          orderBy: { createdAt: 'asc' },
        }),
        (g) => g.spaceId ?? g.collectionId,
        ids,
      ),
    ),
    /** Every member's access data, by organization (for "who has access" lists). */
    membersAccess: new DataLoader<string, MemberAccess[]>((orgIds) => loadMembersAccess(db, orgIds)),
    /** Grants to individual users on each space or collection. */
    userGrants: new DataLoader<string, ContentPermission[]>(async (ids) =>
      groupBy(
        await db.contentPermission.findMany({
          where: { userId: { not: null }, OR: [{ spaceId: { in: [...ids] } }, { collectionId: { in: [...ids] } }] },
          orderBy: { createdAt: 'asc' },
        }),
        (g) => g.spaceId ?? g.collectionId,
        ids,
      ),
    ),
    /** Members of each organization with their user, in order of joining (lists filter in memory). */
    membersInOrganization: new DataLoader<string, (Member & { user: User })[]>(async (ids) => {
      const rows = await db.member.findMany({
        where: { organizationId: { in: [...ids] } },
        include: { user: true },
        orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }],
      });
      for (const m of rows) loaders.user.prime(m.userId, m.user);
      return groupBy(rows, (m) => m.organizationId, ids);
    }),
    /** Teams of each organization, oldest first. */
    teamsInOrganization: new DataLoader<string, Team[]>(async (ids) =>
      groupBy(await db.team.findMany({ where: { organizationId: { in: [...ids] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }), (t) => t.organizationId, ids),
    ),
    /** Memberships of each team, oldest first. */
    teamMembers: new DataLoader<string, TeamMember[]>(async (ids) =>
      groupBy(await db.teamMember.findMany({ where: { teamId: { in: [...ids] } }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] }), (m) => m.teamId, ids),
    ),
    /** One user's membership of one team, by `teamMemberKey`. */
    teamMember: new DataLoader<string, TeamMember | null>(async (keys) => {
      const rows = await db.teamMember.findMany({ where: { OR: keys.map(splitKey).map(([teamId, userId]) => ({ teamId, userId })) } });
      const map = new Map(rows.map((r) => [teamMemberKey(r.teamId, r.userId), r]));
      return keys.map((k) => map.get(k) ?? null);
    }),
    /** Each member's (by memberKey) team memberships with their team, oldest team first. */
    memberTeams: new DataLoader<string, (TeamMember & { team: Team })[]>(async (keys) => {
      const pairs = keys.map(splitKey);
      const rows = await db.teamMember.findMany({
        where: { userId: { in: pairs.map(([, u]) => u) }, team: { organizationId: { in: pairs.map(([o]) => o) } } },
        include: { team: true },
        orderBy: [{ team: { createdAt: 'asc' } }, { teamId: 'asc' }],
      });
      for (const r of rows) loaders.team.prime(r.teamId, r.team);
      return groupBy(rows, (r) => memberKey(r.team.organizationId, r.userId), keys);
    }),
    /** How many live spaces each member (by memberKey) holds a direct grant on. */
    memberSpaceCount: new DataLoader<string, number>(async (keys) => {
      const pairs = keys.map(splitKey);
      const rows = await db.contentPermission.groupBy({
        by: ['organizationId', 'userId'],
        where: { organizationId: { in: pairs.map(([o]) => o) }, userId: { in: pairs.map(([, u]) => u) }, spaceId: { not: null }, space: { is: { deletedAt: null } } },
        _count: { _all: true },
      });
      const map = new Map(rows.map((r) => [memberKey(r.organizationId, r.userId!), r._count._all]));
      return keys.map((k) => map.get(k) ?? 0);
    }),
    /** How many live spaces each team holds a grant on. */
    teamSpaceCount: new DataLoader<string, number>(async (ids) => {
      const rows = await db.contentPermission.groupBy({
        by: ['teamId'],
        where: { teamId: { in: [...ids] }, spaceId: { not: null }, space: { is: { deletedAt: null } } },
        _count: { _all: true },
      });
      const map = new Map(rows.map((r) => [r.teamId!, r._count._all]));
      return ids.map((id) => map.get(id) ?? 0);
    }),
    /** Pages of each revision, by position (then path) within their parent. */
    pagesInRevision: new DataLoader<string, RevisionPage[]>(async (ids) =>
      groupBy(
        await db.revisionPage.findMany({ where: { revisionId: { in: [...ids] } }, orderBy: [{ position: 'asc' }, { path: 'asc' }] }),
        (p) => p.revisionId,
        ids,
      ),
    ),
    /** Whether a page exists in a revision, by `revisionPageKey`; reads IDs only, not documents. */
    revisionPageExists: new DataLoader<string, boolean>(async (keys) => {
      const pairs = keys.map(splitKey);
      const rows = await db.revisionPage.findMany({
        where: { revisionId: { in: pairs.map(([r]) => r) }, id: { in: pairs.map(([, p]) => p) } },
        select: { id: true, revisionId: true },
      });
      const found = new Set(rows.map((r) => revisionPageKey(r.revisionId, r.id)));
      return keys.map((k) => found.has(k));
    }),
    /** Distinct revisions of each space's open change requests, by change request number. */
    openChangeRequestRevisions: new DataLoader<string, string[]>(async (ids) => {
      const rows = await db.changeRequest.findMany({
        where: { spaceId: { in: [...ids] }, status: 'open' },
        select: { spaceId: true, revisionId: true },
        orderBy: { number: 'asc' },
      });
      return groupBy(rows, (r) => r.spaceId, ids).map((list) => [...new Set(list.map((r) => r.revisionId))]);
    }),
    /** Per space: open comments and change requests by status. */
    spaceActivity: new DataLoader<string, SpaceActivity>(async (ids) => {
      const [requests, comments] = await Promise.all([
        db.changeRequest.groupBy({ by: ['spaceId', 'status'], where: { spaceId: { in: [...ids] } }, _count: { _all: true } }),
        db.comment.groupBy({ by: ['spaceId'], where: { spaceId: { in: [...ids] }, status: 'open' }, _count: { _all: true } }),
      ]);
      return ids.map((id) => {
        const count = (status: string) => requests.find((r) => r.spaceId === id && r.status === status)?._count._all ?? 0;
        return {
          comments: comments.find((c) => c.spaceId === id)?._count._all ?? 0,
          changeRequests: requests.filter((r) => r.spaceId === id).reduce((sum, r) => sum + r._count._all, 0),
          changeRequestsOpen: count('open'),
          changeRequestsDraft: count('draft'),
        };
      });
    }),
  };
  return loaders;
}

export type Loaders = ReturnType<typeof createLoaders>;
