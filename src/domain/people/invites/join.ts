/**
 * What accepting any invite does to the membership, inside the accepting transaction: the user
 * becomes a member with the invite's role, or keeps a higher role they already have (an invite
 * never lowers a role; a role beats being a guest), and a content invite adds or raises their
 * grant on that space or collection. Runs under the organization's exclusive access lock, as
 * every change of who may do what does (guarded-write.ts). A membership made or raised records
 * `memberUpdated`, a grant made or raised `permissionsUpdated`, by the invitee.
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { ContentRef } from '../../access/content.js';
import { columns, permissionsUpdated, uniqueWhere } from '../../access/grants.js';
import { lockAccess } from '../../access/guarded-write.js';
import { highest, type Role } from '../../access/roles.js';
import { forbidden } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { memberEvent } from '../events.js';

type Tx = Prisma.TransactionClient;

export type Joining = { organizationId: string; userId: string; role: Role | null; sso?: boolean };

/** Creates or raises the membership; a disabled member is refused. */
export async function joinOrganization(tx: Tx, { organizationId, userId, role, sso }: Joining): Promise<void> {
  await lockAccess(tx, [organizationId], 'change');
  const key = { organizationId_userId: { organizationId, userId } };
  const member = await tx.member.findUnique({ where: key, select: { role: true, disabled: true, sso: true } });
  if (member?.disabled) throw forbidden('This member is disabled in the organization');
  const joined = memberEvent('memberUpdated', organizationId, userId, { userId });
  if (!member) {
    await tx.member.create({ data: { organizationId, userId, role, sso: !!sso } });
    return void (await recordEvents(tx, joined));
  }
  const raised = highest([member.role, role]);
  if (raised === member.role && (!sso || member.sso)) return;
  await tx.member.update({ where: key, data: { role: raised, ...(sso ? { sso: true } : {}) } });
  await recordEvents(tx, joined);
}

/** Adds the user's direct grant of `level` on the content, or raises a lower one. */
export async function grantContent(tx: Tx, content: ContentRef, userId: string, level: Role): Promise<void> {
  const grantee = { kind: 'user' as const, id: userId };
  const where = uniqueWhere(content, grantee);
  const grant = await tx.contentPermission.findUnique({ where, select: { role: true } });
  if (!grant) await tx.contentPermission.create({ data: { id: newId('ContentPermission'), organizationId: content.organizationId, ...columns(content, grantee), role: level } });
  else if (highest([grant.role, level]) !== grant.role) await tx.contentPermission.update({ where, data: { role: level } });
  else return;
  await recordEvents(tx, permissionsUpdated(content, userId));
}
