/**
 * Who may do what with a team (the description is silent beyond "owner can manage team members"):
 * organization admins and the team's owners manage it (title and members); non-guest members
 * and the team's own members (guests included: they see their teammates) see it and its members;
 * creating and deleting teams is for organization admins.
 */
import type { Prisma, Team } from '../../generated/prisma/client.js';
import { forbidden, notFound } from '../errors.js';
import { teamMemberKey } from '../loaders/index.js';
import type { Access } from '../access/access.js';
import { atLeast } from '../access/roles.js';

export const TEAM_ROLES = ['owner', 'member'] as const;

export type TeamPermissions = { admin: boolean; view: boolean };

/** The caller's rights on a team; null when they are not an active member of its organization. */
export async function teamPermissions(access: Access, team: Team): Promise<TeamPermissions | null> {
  const [{ member, role }, membership] = await Promise.all([
    access.orgRole(team.organizationId),
    access.loaders.teamMember.load(teamMemberKey(team.id, access.userId)),
  ]);
  if (!member) return null;
  return { admin: atLeast(role, 'admin') || membership?.role === 'owner', view: role !== null || !!membership };
}

/** A team the caller has `need` on; when `organizationId` is given the team must belong to it. */
export async function requireTeam(access: Access, teamId: string, need: keyof TeamPermissions, organizationId?: string): Promise<Team> {
  if (organizationId) await access.requireOrganization(organizationId);
  const team = await access.loaders.team.load(teamId);
  const permissions = team && (!organizationId || team.organizationId === organizationId) ? await teamPermissions(access, team) : null;
  if (!team || !permissions) throw notFound('Team');
  if (!permissions[need]) throw forbidden();
  return team;
}

/** Locks the team row for the rest of the transaction (404 if it was deleted meanwhile). */
export async function lockTeam(tx: Prisma.TransactionClient, teamId: string): Promise<void> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Team" WHERE "id" = ${teamId} FOR UPDATE`;
  if (!rows.length) throw notFound('Team');
}
