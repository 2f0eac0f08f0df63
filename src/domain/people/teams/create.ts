import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { newId } from '../../kernel/ids.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { teamEvent } from '../events.js';
import { lazySchema, parseInput, titleSchema } from '../../../lib/validation.js';
import { resolveMembers } from './identify.js';

export const teamTitle = lazySchema(() => titleSchema(64, 1));
export const memberIdentifiers = lazySchema(() => z.array(z.string().trim().min(1).max(320)).max(1000));

const input = lazySchema(() => z.object({ organizationId: z.string(), title: teamTitle, members: memberIdentifiers.optional() }));

export type CreateTeamInput = z.input<typeof input>;

/** Creates a team, optionally with members (user IDs or e-mails of organization members). Organization admins only. */
export async function createTeam(db: Db, access: Access, raw: CreateTeamInput): Promise<string> {
  const data = parseInput(input, raw);
  const check = (a: Access) => a.requireOrganization(data.organizationId, 'manageTeams');
  const id = newId('Team');
  await guardedWrite(db, { access, organizations: [data.organizationId], mode: 'use', check }, async (tx) => {
    const userIds = new Set(await resolveMembers(tx, data.organizationId, data.members ?? [], 'members'));
    await tx.team.create({ data: { id, organizationId: data.organizationId, title: data.title } });
    if (userIds.size) await tx.teamMember.createMany({ data: [...userIds].map((userId) => ({ teamId: id, userId, role: 'member' as const })) });
    await recordEvents(tx, teamEvent('teamCreated', data.organizationId, id, access));
  });
  return id;
}
