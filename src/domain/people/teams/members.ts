/** Team membership writes. Organization admins and team owners; each request is one transaction. */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { TeamRole } from '../../../generated/prisma/enums.js';
import { notFound } from '../../../lib/errors.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { teamEvent } from '../events.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { lockTeam, requireTeam, TEAM_ROLES } from './access.js';
import { memberIdentifiers } from './create.js';
import { resolveMembers } from './identify.js';

type Tx = Prisma.TransactionClient;

const teamRole = lazySchema(() => z.enum(TEAM_ROLES));

const bulkInput = lazySchema(() => z.object({
  add: memberIdentifiers.optional(),
  remove: memberIdentifiers.optional(),
  /** Role per member (user ID or e-mail); members not yet in the team are added with it. */
  memberships: z.array(z.object({ user: z.string().trim().min(1).max(320), role: teamRole })).max(1000).optional(),
}));

export type UpdateTeamMembersInput = z.input<typeof bulkInput>;

/**
 * A change of the team's members, and so of what its grants reach: `manage` on the team, checked
 * again inside the transaction, which also holds the team row (404 if it was deleted meanwhile).
 * It records `teamUpdated`, unless `work` answers false (nothing changed).
 */
async function teamMembershipWrite<T>(db: Db, access: Access, organizationId: string, teamId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  const check = (a: Access) => requireTeam(a, teamId, 'manage', organizationId);
  return guardedWrite(db, { access, organizations: [organizationId], mode: 'change', check }, async (tx) => {
    await lockTeam(tx, teamId);
    const result = await work(tx);
    if (result !== false) await recordEvents(tx, teamEvent('teamUpdated', organizationId, teamId, access));
    return result;
  });
}

/** Adds, re-roles and removes members at once. A user both added (or given a role) and removed is removed. */
export async function updateTeamMembers(db: Db, access: Access, organizationId: string, teamId: string, raw: UpdateTeamMembersInput): Promise<string> {
  const data = parseInput(bulkInput, raw);
  const memberships = data.memberships ?? [];
  await teamMembershipWrite(db, access, organizationId, teamId, async (tx) => {
    const added = await resolveMembers(tx, organizationId, data.add ?? [], 'add');
    const removed = new Set(await resolveMembers(tx, organizationId, data.remove ?? [], 'remove'));
    const roled = await resolveMembers(tx, organizationId, memberships.map((m) => m.user), 'memberships');
    // userId → role to set (undefined: keep the current one, `member` for newcomers)
    const upserts = new Map<string, TeamRole | undefined>();
    for (const userId of added) if (!upserts.has(userId)) upserts.set(userId, undefined);
    roled.forEach((userId, i) => upserts.set(userId, memberships[i].role));
    for (const userId of removed) upserts.delete(userId);

    if (upserts.size) {
      await tx.teamMember.createMany({ data: [...upserts].map(([userId, role]) => ({ teamId, userId, role: role ?? 'member' })), skipDuplicates: true });
    }
    for (const role of TEAM_ROLES) {
      const userIds = [...upserts].filter(([, r]) => r === role).map(([userId]) => userId);
      if (userIds.length) await tx.teamMember.updateMany({ where: { teamId, userId: { in: userIds } }, data: { role } });
    }
    if (removed.size) await tx.teamMember.deleteMany({ where: { teamId, userId: { in: [...removed] } } });
  });
  return teamId;
}

const setInput = lazySchema(() => z.object({ role: teamRole.optional() }));

/** Adds an organization member to the team (as `member` unless a role is given) or changes their role. */
export async function setTeamMember(
  db: Db,
  access: Access,
  organizationId: string,
  teamId: string,
  userId: string,
  raw: z.input<typeof setInput>,
): Promise<string> {
  const data = parseInput(setInput, raw);
  await teamMembershipWrite(db, access, organizationId, teamId, async (tx) => {
    if (!(await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } }))) throw notFound('Member');
    await tx.teamMember.upsert({
      where: { teamId_userId: { teamId, userId } },
      create: { teamId, userId, role: data.role ?? 'member' },
      update: data.role ? { role: data.role } : {},
    });
  });
  return teamId;
}

/** Returns false when the user was not in the team (the OpenAPI's 204 case). */
export async function removeTeamMember(db: Db, access: Access, organizationId: string, teamId: string, userId: string): Promise<boolean> {
  return teamMembershipWrite(db, access, organizationId, teamId, async (tx) => (await tx.teamMember.deleteMany({ where: { teamId, userId } })).count > 0);
}
