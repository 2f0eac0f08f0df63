/**
 * Link invites (4.3): organization admins create links whose ID lets whoever holds it join — the
 * organization with a role (null: as a guest), or a space or collection of it as a guest with a
 * level there. They expire (14 days by default, a year at most) and work only while the
 * organization's `inviteLinks` setting is on; creating one needs it on too.
 */
import { z } from 'zod';
import { Prisma, type LinkInvite } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { organizationWrite } from '../../access/guarded-write.js';
import { ROLES, type Role } from '../../access/roles.js';
import { badRequest, forbidden, notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { byTimeThenId, readPage, type Page, type PageArgs } from '../../kernel/pagination/keyset.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';

const { sql } = Prisma;

export type LinkInviteKind = 'organization' | 'space' | 'collection';
export type LinkInviteInput = { role?: Role | null; level?: Role | null; space?: string | null; collection?: string | null; expiresAt?: unknown };

const MAX_LIFETIME_MS = 365 * 24 * 3600 * 1000;

const role = lazySchema(() => z.enum(ROLES));
const expiry = lazySchema(() => z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), 'must be in the future')
  .refine((date) => date.getTime() <= Date.now() + MAX_LIFETIME_MS, 'must be at most a year ahead'));

/** The variant of the body: `{role}`, `{level, space}` or `{level, collection}`. */
function variant(raw: LinkInviteInput): { kind: LinkInviteKind; role: Role | null; target?: string } {
  if (raw.level === undefined) {
    if (raw.role === undefined) throw badRequest('Invalid value for "role": give "role", or "level" with "space" or "collection"', 'role');
    return { kind: 'organization', role: parseInput(z.object({ role: role.nullable() }), { role: raw.role }).role };
  }
  const level = parseInput(z.object({ level: role }), { level: raw.level }).level;
  if (raw.space && raw.collection) throw badRequest('Invalid value for "collection": give "space" or "collection", not both', 'collection');
  if (raw.space) return { kind: 'space', role: level, target: String(raw.space) };
  if (raw.collection) return { kind: 'collection', role: level, target: String(raw.collection) };
  throw badRequest('Invalid value for "space": a content invite needs "space" or "collection"', 'space');
}

export async function createLinkInvite(db: Db, access: Access, organizationId: string, raw: LinkInviteInput, defaultLifetimeMs: number): Promise<LinkInvite> {
  const { kind, role: level, target } = variant(raw);
  const expiresAt = raw.expiresAt === undefined || raw.expiresAt === null ? new Date(Date.now() + defaultLifetimeMs) : parseInput(z.object({ expiresAt: expiry }), { expiresAt: raw.expiresAt }).expiresAt;
  return organizationWrite(db, access, organizationId, 'manageMembers', async (tx) => {
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { inviteLinks: true } });
    if (!organization.inviteLinks) throw forbidden('Invite links are disabled for this organization');
    if (kind === 'space' && !(await tx.space.findFirst({ where: { id: target, organizationId, deletedAt: null }, select: { id: true } }))) throw notFound('Space');
    if (kind === 'collection' && !(await tx.collection.findFirst({ where: { id: target, organizationId }, select: { id: true } }))) throw notFound('Collection');
    const invite = await tx.linkInvite.create({
      data: { id: newId('LinkInvite'), organizationId, kind, role: level, spaceId: kind === 'space' ? target : null, collectionId: kind === 'collection' ? target : null, createdById: access.userId, expiresAt },
    });
    await recordEvents(tx, { kind: 'linkInviteCreated', organizationId, subjectId: invite.id, actorId: access.userId, data: { kind } });
    return invite;
  });
}

export async function findLinkInvite(db: Db, access: Access, organizationId: string, id: string): Promise<LinkInvite> {
  await access.requireOrganization(organizationId, 'manageMembers');
  const invite = await db.linkInvite.findFirst({ where: { id, organizationId } });
  if (!invite) throw notFound('Invite');
  return invite;
}

/** Newest first; `kind`: only those. */
export async function linkInvitesPage(db: Db, access: Access, organizationId: string, args: PageArgs, kind?: LinkInviteKind | null): Promise<Page<LinkInvite>> {
  await access.requireOrganization(organizationId, 'manageMembers');
  const key = byTimeThenId<LinkInvite>(`link-invites:${organizationId}:${kind ?? ''}`, 'i."createdAt"', 'i."id"', (i) => [i.createdAt, i.id], { descending: true });
  return readPage<LinkInvite>(
    db,
    sql`SELECT i."id", i."organizationId", i."kind", i."role"::text AS "role", i."spaceId", i."collectionId", i."createdById", i."createdAt", i."expiresAt" FROM "LinkInvite" i`,
    [sql`i."organizationId" = ${organizationId}`, ...(kind ? [sql`i."kind" = ${kind}`] : [])],
    key,
    args,
  );
}

export function countLinkInvites(db: Db, organizationId: string, kind?: LinkInviteKind | null): Promise<number> {
  return db.linkInvite.count({ where: { organizationId, ...(kind ? { kind } : {}) } });
}

/** `{role}` changes an organization invite's role, `{level}` a content invite's level. */
export function updateLinkInvite(db: Db, access: Access, organizationId: string, id: string, raw: { role?: Role | null; level?: Role | null }): Promise<LinkInvite> {
  return organizationWrite(db, access, organizationId, 'manageMembers', async (tx) => {
    const invite = await tx.linkInvite.findFirst({ where: { id, organizationId } });
    if (!invite) throw notFound('Invite');
    const field = invite.kind === 'organization' ? 'role' : 'level';
    const other = field === 'role' ? 'level' : 'role';
    if (raw[other] !== undefined) throw badRequest(`Invalid value for "${other}": this invite has a ${field}, not a ${other}`, other);
    if (raw[field] === undefined) throw badRequest(`Invalid value for "${field}": required`, field);
    const value = parseInput(z.object({ [field]: field === 'role' ? role.nullable() : role }), { [field]: raw[field] })[field] as Role | null;
    const updated = await tx.linkInvite.update({ where: { id }, data: { role: value } });
    await recordEvents(tx, { kind: 'linkInviteUpdated', organizationId, subjectId: id, actorId: access.userId });
    return updated;
  });
}

/** Whether there was such an invite (REST answers 205 when one was deleted, 204 otherwise). */
export function deleteLinkInvite(db: Db, access: Access, organizationId: string, id: string): Promise<boolean> {
  return organizationWrite(db, access, organizationId, 'manageMembers', async (tx) => {
    const { count } = await tx.linkInvite.deleteMany({ where: { id, organizationId } });
    if (count) await recordEvents(tx, { kind: 'linkInviteDeleted', organizationId, subjectId: id, actorId: access.userId });
    return count > 0;
  });
}
