import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { teamEvent } from '../events.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { requireTeam } from './access.js';
import { teamTitle } from './create.js';

const input = lazySchema(() => z.object({ title: teamTitle }));

/** Renames a team. Organization admins and team owners. */
export async function updateTeam(db: Db, access: Access, organizationId: string, teamId: string, raw: z.input<typeof input>): Promise<string> {
  const data = parseInput(input, raw);
  const check = (a: Access) => requireTeam(a, teamId, 'manage', organizationId);
  await guardedWrite(db, { access, organizations: [organizationId], mode: 'use', check }, async (tx) => {
    await tx.team.update({ where: { id: teamId }, data: { title: data.title } });
    await recordEvents(tx, teamEvent('teamUpdated', organizationId, teamId, access));
  });
  return teamId;
}

/**
 * Deletes a team; its memberships and grants go with it (foreign-key cascade). Organization admins
 * only. Returns false when no such team exists in the organization (the OpenAPI's 204 case).
 */
export async function deleteTeam(db: Db, access: Access, organizationId: string, teamId: string): Promise<boolean> {
  const check = (a: Access) => a.requireOrganization(organizationId, 'manageTeams');
  // Its grants go with it: a change of access.
  return guardedWrite(db, { access, organizations: [organizationId], mode: 'change', check }, async (tx) => {
    if (!(await tx.team.deleteMany({ where: { id: teamId, organizationId } })).count) return false;
    await recordEvents(tx, teamEvent('teamDeleted', organizationId, teamId, access));
    return true;
  });
}
