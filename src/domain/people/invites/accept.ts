/**
 * Accepting an invite. Through the e-mailed link (the link's secret proves the address), or
 * signed in with an invite's ID: a pending e-mail invite addressed to the caller, or a link invite
 * of the organization, which anyone holding its ID may use while the organization allows invite
 * links and it has not expired. An e-mail invite is used once.
 *
 * An organization vouches for an address in that organization only (access/reach.ts). So the link
 * gives a credential only to an account no one has claimed (User.claimedAt: it never held a
 * credential of wider reach — a genuinely new invitee), and that credential is confined to the
 * inviting organization: an address squatted through one organization's link gives nothing in
 * another. A claimed account accepts only while signed in as itself — the link with its own API
 * token, or `POST /orgs/{id}/invites/{inviteId}` — and gets no new credential. A signed-in caller's
 * token must reach the inviting organization.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import type { Role } from '../../access/roles.js';
import { forbidden, gone, notFound } from '../../../lib/errors.js';
import { digestToken, issueNamedToken, type TokenHolder } from '../identity/tokens.js';
import { reaches } from '../../access/reach.js';
import { kindOfId } from '../../kernel/ids.js';
import { transactionFrom, type RequestOrigin } from '../../kernel/request-origin.js';
import { grantContent, joinOrganization } from './join.js';

type Tx = Prisma.TransactionClient;

/** What the acceptance page shows before the invitee accepts. */
export type InvitationPreview = {
  id: string;
  organizationId: string;
  organizationTitle: string;
  email: string;
  role: Role | null;
  expiresAt: Date;
  /** The address belongs to a claimed account: it accepts signed in as itself. */
  existingAccount: boolean;
};

const INVITATION = 'Invitation (it may have been used, withdrawn or replaced by a newer one)';

/** The pending, unexpired invite behind an e-mailed link's secret, or null. */
export async function previewInvitation(db: Db, secret: string): Promise<InvitationPreview | null> {
  const invite = await db.memberInvite.findUnique({
    where: { digest: digestToken(secret) },
    select: { id: true, organizationId: true, role: true, expiresAt: true, user: { select: { email: true, claimedAt: true } }, organization: { select: { title: true } } },
  });
  if (!invite || invite.expiresAt <= new Date()) return null;
  const { id, organizationId, role, expiresAt } = invite;
  return { id, organizationId, organizationTitle: invite.organization.title, email: invite.user.email, role, expiresAt, existingAccount: !!invite.user.claimedAt };
}

export type Acceptance = { organizationId: string; organizationTitle: string; user: { id: string; email: string }; role: Role | null; token?: string };

type ClaimedInvite = { id: string; organizationId: string; userId: string; role: Role | null; sso: boolean; expiresAt: Date };

/** Deletes the invite and answers it: of two concurrent acceptances, one gets it, the other nothing. */
async function claim(tx: Tx, where: Prisma.Sql): Promise<ClaimedInvite | undefined> {
  const [invite] = await tx.$queryRaw<ClaimedInvite[]>`
    DELETE FROM "MemberInvite" WHERE ${where}
    RETURNING "id", "organizationId", "userId", "role"::text AS "role", "sso", "expiresAt"`;
  return invite;
}

export const SIGN_IN_TO_ACCEPT =
  'This invitation is for an existing account: accept it signed in as that account — send its API token with the acceptance (Authorization: Bearer <token>), or POST /v1/orgs/{organizationId}/invites/{inviteId} with it. The link alone gives an existing account nothing.';

/**
 * Accepts the invite behind an e-mailed link's secret (404 when unknown, used, withdrawn or
 * expired). `caller`: who sent the acceptance with an API token, if anyone did; `from`: where.
 */
export function acceptInvitation(db: Db, secret: string, caller: TokenHolder | null, from: RequestOrigin | null): Promise<Acceptance> {
  return transactionFrom(db, from, async (tx) => {
    const invite = await claim(tx, Prisma.sql`"digest" = ${digestToken(secret)}`);
    if (!invite || invite.expiresAt <= new Date()) throw notFound(INVITATION);
    const user = await tx.user.findUniqueOrThrow({ where: { id: invite.userId }, select: { id: true, email: true, claimedAt: true } });
    const signedInAsInvitee = !!caller && caller.userId === user.id && reaches(caller, invite.organizationId);
    // Refused: the transaction rolls back, the invite stays pending for the account itself.
    if (user.claimedAt && !signedInAsInvitee) throw forbidden(SIGN_IN_TO_ACCEPT.replace('{organizationId}', invite.organizationId).replace('{inviteId}', invite.id));
    await joinOrganization(tx, invite);
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: invite.organizationId }, select: { title: true } });
    const token = user.claimedAt
      ? undefined
      : (await issueNamedToken(tx, user.id, { name: `Invitation to ${organization.title}`.slice(0, 100), confinedTo: invite.organizationId })).token;
    return { organizationId: invite.organizationId, organizationTitle: organization.title, user: { id: user.id, email: user.email }, role: invite.role, ...(token ? { token } : {}) };
  });
}

/**
 * `POST /orgs/{organizationId}/invites/{inviteId}`: the caller joins with a link invite of the
 * organization, or with their own pending e-mail invite there.
 */
export async function joinWithInvite(db: Db, access: Access, organizationId: string, inviteId: string): Promise<void> {
  const userId = access.userId;
  // A credential confined to another organization does not reach this one (access/reach.ts).
  if (!reaches(access.origin, organizationId)) throw notFound('Invite');
  await transactionFrom(db, access.from, async (tx) => {
    switch (kindOfId(inviteId)) {
      case 'MemberInvite': {
        const invite = await claim(tx, Prisma.sql`"id" = ${inviteId} AND "organizationId" = ${organizationId} AND "userId" = ${userId}`);
        if (!invite) throw notFound('Invite');
        if (invite.expiresAt <= new Date()) throw gone('This invite has expired');
        return joinOrganization(tx, invite);
      }
      case 'LinkInvite': {
        const invite = await tx.linkInvite.findFirst({
          where: { id: inviteId, organizationId },
          include: { organization: { select: { inviteLinks: true } }, space: { select: { deletedAt: true, organizationId: true } }, collection: { select: { organizationId: true } } },
        });
        if (!invite) throw notFound('Invite');
        if (!invite.organization.inviteLinks) throw forbidden('Invite links are disabled for this organization');
        if (invite.expiresAt <= new Date()) throw gone('This invite has expired');
        if (invite.kind === 'organization') return joinOrganization(tx, { organizationId, userId, role: invite.role });
        // Content in the trash, or transferred to another organization since, is not reached.
        if (invite.space && (invite.space.deletedAt || invite.space.organizationId !== organizationId)) throw notFound('Space');
        if (invite.collection && invite.collection.organizationId !== organizationId) throw notFound('Collection');
        // A content invite makes a guest of who is not a member yet, with a grant on that content.
        await joinOrganization(tx, { organizationId, userId, role: null });
        const content = invite.spaceId ? { kind: 'space' as const, id: invite.spaceId, organizationId } : { kind: 'collection' as const, id: invite.collectionId!, organizationId };
        return grantContent(tx, content, userId, invite.role!);
      }
      default:
        throw notFound('Invite');
    }
  });
}
