import { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { Access } from '../access/access.js';
import { parseInput } from '../validation.js';
import { requireTeam } from './access.js';
import { teamTitle } from './create.js';

const input = z.object({ title: teamTitle });

/** Renames a team. Organization admins and team owners. */
export async function updateTeam(db: Db, access: Access, organizationId: string, teamId: string, raw: z.input<typeof input>): Promise<string> {
  const data = parseInput(input, raw);
  await requireTeam(access, teamId, 'manage', organizationId);
  await db.team.update({ where: { id: teamId }, data: { title: data.title } });
  return teamId;
}

/**
 * Deletes a team; its memberships and grants go with it (foreign-key cascade). Organization admins
 * only. Returns false when no such team exists in the organization (the OpenAPI's 204 case).
 */
export async function deleteTeam(db: Db, access: Access, organizationId: string, teamId: string): Promise<boolean> {
  await access.requireOrganization(organizationId, 'manageTeams');
  const { count } = await db.team.deleteMany({ where: { id: teamId, organizationId } });
  return count > 0;
}
