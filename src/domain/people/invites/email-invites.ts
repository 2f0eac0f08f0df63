/**
 * Inviting by e-mail (4.3): organization admins invite addresses, each with a role (the item's,
 * else the request's, else the organization's default; null: as a guest) and optionally as an
 * SSO member. An invite is a pending membership (MemberInvite): the user account exists (created
 * for an unknown address), the membership only once the invitee accepts. Addresses identify
 * users case-insensitively (lower-cased, like every account). Members already in the
 * organization are skipped; inviting a pending invitee again replaces their invite and its link.
 * The e-mails are sent once the invites are committed; an invite whose message could not be
 * sent (no SMTP server configured, or it refused) keeps its link in the answer, for the admin
 * to pass on.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Prisma, type MemberInvite } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { organizationWrite } from '../../access/guarded-write.js';
import { ROLES, type Role } from '../../access/roles.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { digestToken } from '../identity/tokens.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { inviteEmail, normalizeEmail, type Mailer } from '../mail/index.js';
import { byTimeThenId, readPage, type Page, type PageArgs } from '../../kernel/pagination/keyset.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';

const { sql } = Prisma;

export const MAX_INVITES_PER_REQUEST = 100;
const MAIL_CONCURRENCY = 5;

/** An account's address: validated, and lower-cased whole (accounts are matched case-insensitively). */
export const accountEmail = (value: unknown, field: string) => normalizeEmail(value, field).toLowerCase();

const roleOrGuest = lazySchema(() => z.enum(ROLES).nullable());

export type InviteeInput = { email: unknown; role?: Role | null };
export type EmailInvitesInput = { emails: unknown; role?: Role | null; sso?: unknown };

type Invitee = { email: string; role: Role | null | undefined };

function invitees(raw: unknown): Invitee[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_INVITES_PER_REQUEST) {
    throw badRequest(`Invalid value for "emails": an array of 1 to ${MAX_INVITES_PER_REQUEST} e-mail addresses is required`, 'emails');
  }
  const byEmail = new Map<string, Invitee>();
  raw.forEach((item: unknown, i) => {
    const invitee =
      typeof item === 'string'
        ? { email: accountEmail(item, `emails.${i}`), role: undefined }
        : item && typeof item === 'object' && !Array.isArray(item)
          ? { email: accountEmail((item as InviteeInput).email, `emails.${i}.email`), role: parseInput(z.object({ role: roleOrGuest.optional() }), { role: (item as InviteeInput).role }, `emails.${i}.`).role }
          : undefined;
    if (!invitee) throw badRequest(`Invalid value for "emails.${i}": expected an e-mail address or {email, role}`, `emails.${i}`);
    if (!byEmail.has(invitee.email)) byEmail.set(invitee.email, invitee); // the first mention of an address counts
  });
  return [...byEmail.values()];
}

/** One invite made by a request, with the secret of its link (shown once, never stored). */
export type SentInvite = MemberInvite & { email: string; link: string; delivered: boolean };
export type EmailInvitesResult = { users: string[]; invited: number; failedSSOEmails: string[]; invites: SentInvite[] };

/** `inviteUrl`: an invitation's link, made of its secret — the acceptance page of this server (http/paths.ts). */
export type InviteServices = { db: Db; mailer: Mailer; inviteUrl: (secret: string) => string; inviteMs: number };

export async function inviteByEmail({ db, mailer, inviteUrl, inviteMs }: InviteServices, access: Access, organizationId: string, raw: EmailInvitesInput): Promise<EmailInvitesResult> {
  const list = invitees(raw.emails);
  const { role, sso } = parseInput(z.object({ role: roleOrGuest.optional(), sso: z.boolean().optional() }), { role: raw.role, sso: raw.sso });
  const made = await organizationWrite(db, access, organizationId, 'manageMembers', async (tx) => {
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { title: true, defaultRole: true } });
    const inviter = await tx.user.findUnique({ where: { id: access.userId }, select: { displayName: true } });
    const emails = list.map((i) => i.email);
    await tx.user.createMany({ data: emails.map((email) => ({ id: newId('User'), email, displayName: email.split('@')[0] })), skipDuplicates: true });
    const users = new Map((await tx.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } })).map((u) => [u.email, u.id]));
    const ids = [...users.values()];
    const members = new Set((await tx.member.findMany({ where: { organizationId, userId: { in: ids } }, select: { userId: true } })).map((m) => m.userId));
    // SSO members belong to one organization: who is an active member elsewhere is invited without it.
    const elsewhere = sso
      ? new Set((await tx.member.findMany({ where: { userId: { in: ids }, organizationId: { not: organizationId }, disabled: false }, select: { userId: true }, distinct: ['userId'] })).map((m) => m.userId))
      : new Set<string>();
    const expiresAt = new Date(Date.now() + inviteMs);
    const invites: (MemberInvite & { email: string; secret: string })[] = [];
    for (const invitee of list) {
      const userId = users.get(invitee.email)!;
      if (members.has(userId)) continue;
      const secret = randomBytes(32).toString('base64url');
      const fields = {
        role: invitee.role !== undefined ? invitee.role : role !== undefined ? role : organization.defaultRole,
        sso: !!sso && !elsewhere.has(userId),
        digest: digestToken(secret),
        invitedById: access.userId,
        createdAt: new Date(),
        expiresAt,
      };
      const invite = await tx.memberInvite.upsert({
        where: { organizationId_userId: { organizationId, userId } },
        create: { id: newId('MemberInvite'), organizationId, userId, ...fields },
        update: fields,
      });
      invites.push({ ...invite, email: invitee.email, secret });
    }
    await recordEvents(tx, invites.map((i) => ({ kind: 'memberInviteCreated' as const, organizationId, subjectId: i.id, actorId: access.userId, data: { userId: i.userId, role: i.role } })));
    return { invites, organization, inviterName: inviter?.displayName, failedSSOEmails: list.filter((i) => elsewhere.has(users.get(i.email)!) && !members.has(users.get(i.email)!)).map((i) => i.email) };
  });

  const send = async ({ secret, ...invite }: (typeof made.invites)[number]): Promise<SentInvite> => {
    const link = inviteUrl(secret);
    const content = inviteEmail({ organizationTitle: made.organization.title, inviterName: made.inviterName, role: invite.role ?? 'guest', link, expiresAt: invite.expiresAt });
    // A refused message is logged by the mailer; the admin gets the link instead.
    const delivered = await mailer.send({ to: invite.email, ...content }).then((r) => r.delivered, () => false);
    return { ...invite, link, delivered };
  };
  // A few messages at a time (each over its own SMTP connection), in the order of the request.
  const sent: SentInvite[] = [];
  for (let i = 0; i < made.invites.length; i += MAIL_CONCURRENCY) sent.push(...(await Promise.all(made.invites.slice(i, i + MAIL_CONCURRENCY).map(send))));
  return { users: sent.map((i) => i.userId), invited: sent.length, failedSSOEmails: made.failedSSOEmails, invites: sent };
}

/** A pending invite as listed: its link's digest is not read. */
export type PendingInvite = Omit<MemberInvite, 'digest'> & { email: string };

/** The organization's pending e-mail invites (admins), oldest first. */
export async function memberInvitesPage(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<Page<PendingInvite>> {
  await access.requireOrganization(organizationId, 'manageMembers');
  const key = byTimeThenId<PendingInvite>(`member-invites:${organizationId}`, 'i."createdAt"', 'i."id"', (i) => [i.createdAt, i.id]);
  return readPage<PendingInvite>(db, sql`SELECT i."id", i."organizationId", i."userId", i."role"::text AS "role", i."sso", i."invitedById", i."createdAt", i."expiresAt", u."email"
      FROM "MemberInvite" i JOIN "User" u ON u."id" = i."userId"`, [sql`i."organizationId" = ${organizationId}`], key, args);
}

export function countMemberInvites(db: Db, organizationId: string): Promise<number> {
  return db.memberInvite.count({ where: { organizationId } });
}

/** Withdraws a pending invite: its link stops working. */
export function revokeMemberInvite(db: Db, access: Access, organizationId: string, id: string): Promise<void> {
  return organizationWrite(db, access, organizationId, 'manageMembers', async (tx) => {
    const { count } = await tx.memberInvite.deleteMany({ where: { id, organizationId } });
    if (!count) throw notFound('Invite');
    await recordEvents(tx, { kind: 'memberInviteRevoked', organizationId, subjectId: id, actorId: access.userId });
  });
}
