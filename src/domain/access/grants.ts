/**
 * Direct grants of a role on a space or collection, to users and teams of its organization.
 * Writes need `admin` on the content; the grantees must belong to the content's organization.
 */
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { notFound } from '../../lib/errors.js';
import { newId } from '../kernel/ids.js';
import { recordEvents, type EventRecord } from '../kernel/outbox.js';
import { lazySchema, parseInput } from '../../lib/validation.js';
import { roleSchema } from './roles.js';
import type { Access } from './access.js';
import { requireContent, type ContentRef } from './content.js';
import { guardedWrite } from './guarded-write.js';
import type { Role } from './roles.js';

type Tx = Prisma.TransactionClient;
export type Grantee = { kind: 'user' | 'team'; id: string };

const ids = lazySchema(() => z.array(z.string().min(1)).min(1).optional());
export const inviteInput = lazySchema(() => z
  .object({ role: roleSchema, users: ids, teams: ids })
  .refine((d) => d.users || d.teams, { message: 'give "users", "teams" or both', path: ['users'] }));

export type InviteInput = z.input<typeof inviteInput>;

/** 404 naming the first user who is not a member of the organization, or team not in it. */
export async function requireGrantees(db: Tx, organizationId: string, grantees: Grantee[]): Promise<void> {
  const users = grantees.filter((g) => g.kind === 'user').map((g) => g.id);
  const teams = grantees.filter((g) => g.kind === 'team').map((g) => g.id);
  const [members, orgTeams] = await Promise.all([
    users.length ? db.member.findMany({ where: { organizationId, userId: { in: users } }, select: { userId: true } }) : [],
    teams.length ? db.team.findMany({ where: { organizationId, id: { in: teams } }, select: { id: true } }) : [],
  ]);
  const missingUser = users.find((id) => !members.some((m) => m.userId === id));
  if (missingUser) throw notFound(`User ${missingUser}`);
  const missingTeam = teams.find((id) => !orgTeams.some((t) => t.id === id));
  if (missingTeam) throw notFound(`Team ${missingTeam}`);
}

/** The columns naming a grant's content and holder. */
export const columns = (content: ContentRef, grantee: Grantee) => ({
  ...(content.kind === 'space' ? { spaceId: content.id } : { collectionId: content.id }),
  ...(grantee.kind === 'user' ? { userId: grantee.id } : { teamId: grantee.id }),
});

/** The grant of `g` on the content, as a unique key. */
export function uniqueWhere(content: ContentRef, g: Grantee): Prisma.ContentPermissionWhereUniqueInput {
  const { id } = content;
  if (content.kind === 'space') return g.kind === 'user' ? { spaceId_userId: { spaceId: id, userId: g.id } } : { spaceId_teamId: { spaceId: id, teamId: g.id } };
  return g.kind === 'user' ? { collectionId_userId: { collectionId: id, userId: g.id } } : { collectionId_teamId: { collectionId: id, teamId: g.id } };
}

async function upsertGrant(tx: Tx, content: ContentRef, grantee: Grantee, role: Role): Promise<void> {
  await tx.contentPermission.upsert({
    where: uniqueWhere(content, grantee),
    create: { id: newId('ContentPermission'), organizationId: content.organizationId, ...columns(content, grantee), role },
    update: { role },
  });
}

/**
 * A change of grants on the content: `share` on it, checked again inside the transaction; it
 * records `permissionsUpdated` (told to who can view the content).
 */
async function grantWrite(db: Db, access: Access, contentId: string, change: GrantChange | undefined, work: (tx: Tx, content: ContentRef) => Promise<void>): Promise<void> {
  const check = (a: Access) => requireContent(a, contentId, 'share');
  await guardedWrite(db, { access, organizations: (content) => [content.organizationId], mode: 'change', check }, async (tx, content) => {
    await work(tx, content);
    await recordEvents(tx, permissionsUpdated(content, access.userId, change));
  });
}

/** Who was given which role (null: whose grant was removed), for the event's facts (the audit log). */
type GrantChange = { users: string[]; teams: string[]; role: Role | null };

/** The event of a change of grants on a space (told to who can view it) or a collection. */
export const permissionsUpdated = (content: ContentRef, actorId: string | null, change?: GrantChange): EventRecord => ({
  kind: 'permissionsUpdated',
  organizationId: content.organizationId,
  subjectId: content.id,
  spaceId: content.kind === 'space' ? content.id : null,
  actorId,
  ...(change ? { data: change } : {}),
});

/** Grants `role` to each user and team, replacing a previous grant of theirs on the content. */
export async function inviteToContent(db: Db, access: Access, contentId: string, raw: InviteInput): Promise<string> {
  const data = parseInput(inviteInput, raw);
  const grantees: Grantee[] = [
    ...[...new Set(data.users ?? [])].map((id) => ({ kind: 'user' as const, id })),
    ...[...new Set(data.teams ?? [])].map((id) => ({ kind: 'team' as const, id })),
  ];
  const change = { users: grantees.filter((g) => g.kind === 'user').map((g) => g.id), teams: grantees.filter((g) => g.kind === 'team').map((g) => g.id), role: data.role };
  await grantWrite(db, access, contentId, change, async (tx, content) => {
    await requireGrantees(tx, content.organizationId, grantees);
    for (const g of grantees) await upsertGrant(tx, content, g, data.role);
  });
  return contentId;
}

/**
 * Sets one user's or team's direct grant: a role creates or replaces it, null removes it, and
 * undefined changes nothing. Removing a grant that does not exist is not an error.
 */
export async function setGrant(db: Db, access: Access, contentId: string, grantee: Grantee, rawRole: Role | null | undefined): Promise<string> {
  const { role } = parseInput(z.object({ role: roleSchema.nullish() }), { role: rawRole });
  const change = role === undefined ? undefined : { users: grantee.kind === 'user' ? [grantee.id] : [], teams: grantee.kind === 'team' ? [grantee.id] : [], role };
  await grantWrite(db, access, contentId, change, async (tx, content) => {
    if (role === null) {
      await tx.contentPermission.deleteMany({ where: columns(content, grantee) });
      return;
    }
    await requireGrantees(tx, content.organizationId, [grantee]);
    if (role) await upsertGrant(tx, content, grantee, role);
  });
  return contentId;
}
