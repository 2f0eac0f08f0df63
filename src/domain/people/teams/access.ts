/**
 * A caller's rights on a team, from the rules of capabilities.ts (the description is silent beyond
 * "owner can manage team members"); creating and deleting teams is the organization's `manageTeams`.
 */
import type { Prisma, Team } from '../../../generated/prisma/client.js';
import { forbidden, notFound } from '../../../lib/errors.js';
import { teamMemberKey } from '../../loaders/keys.js';
import type { Access } from '../../access/access.js';
import { TEAM_RULES, teamPermissionsOf, type TeamAction, type TeamStanding } from '../../access/capabilities.js';

export const TEAM_ROLES = ['owner', 'member'] as const;

export type TeamPermissions = ReturnType<typeof teamPermissionsOf>;

/** The caller's standing towards a team; null when they are not an active member of its organization. */
async function standingOn(access: Access, team: Team): Promise<TeamStanding | null> {
  const [{ member, role }, membership] = await Promise.all([
    access.orgRole(team.organizationId),
    access.loaders.teamMember.load(teamMemberKey(team.id, access.userId)),
  ]);
  return member ? { orgRole: role, teamRole: membership?.role ?? null } : null;
}

/** The caller's rights on a team (its `permissions` object); null when they are not an active member of its organization. */
export async function teamPermissions(access: Access, team: Team): Promise<TeamPermissions | null> {
  const standing = await standingOn(access, team);
  return standing && teamPermissionsOf(standing);
}

/** A team the caller may `action`; when `organizationId` is given the team must belong to it. */
export async function requireTeam(access: Access, teamId: string, action: TeamAction, organizationId?: string): Promise<Team> {
  if (organizationId) await access.requireOrganization(organizationId);
  const team = await access.loaders.team.load(teamId);
  const standing = team && (!organizationId || team.organizationId === organizationId) ? await standingOn(access, team) : null;
  if (!team || !standing || !TEAM_RULES.view(standing)) throw notFound('Team');
  if (!TEAM_RULES[action](standing)) throw forbidden();
  return team;
}

/** Locks the team row for the rest of the transaction (404 if it was deleted meanwhile). */
export async function lockTeam(tx: Prisma.TransactionClient, teamId: string): Promise<void> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Team" WHERE "id" = ${teamId} FOR UPDATE`;
  if (!rows.length) throw notFound('Team');
}
