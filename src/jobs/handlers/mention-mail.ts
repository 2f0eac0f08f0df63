/**
 * The mail of one mention (task `send_mention_mail`, payload `{postId, userId}`, queued by
 * `recordMentions`): sent at most once per post and user, and only to a member who can read the
 * comment when it is sent — an active member whose access reaches the space (and the change
 * request), checked with the same Access rules as a request of theirs. Otherwise the mention row
 * says why nothing was sent (`skipped`).
 *
 * At most once: the row is claimed (`notifiedAt` set where it was null) BEFORE the mail is sent,
 * so two runs of the task can never both send. The price is the opposite failure: a worker that
 * dies between the claim and the send loses that one mail (the row says notified); sending first
 * would instead mail twice after a crash between send and mark, which is worse for a
 * notification. A send that fails releases the claim and throws, so graphile-worker retries with
 * its backoff; the last attempt marks the row `mail failed` instead. (An SMTP server that took the
 * message but whose answer was lost looks like a failure: the retry may then send it again.)
 */
import type { JobHelpers, Task } from 'graphile-worker';
import { Access } from '../../domain/access/access.js';
import { createLoaders } from '../../domain/loaders/index.js';
import { mentionEmail, normalizeEmail } from '../../domain/people/mail/index.js';
import { entityIn } from '../../domain/versions/revisions/read.js';
import { revisionScope } from '../../domain/versions/revisions/load.js';
import { mentionedUsers, postExcerpt } from '../../lib/documents/mentions.js';
import { AppError } from '../../lib/errors.js';
import type { JobServices } from '../handler.js';

type Payload = { postId: string; userId: string };
type Db = JobServices['db'];

/** Why no mail went, as the mention row keeps it. */
export const MENTION_SKIPPED = {
  postDeleted: 'post deleted',
  noAccess: 'no access',
  noEmail: 'no e-mail',
  mailFailed: 'mail failed',
  notSent: 'no SMTP server: the mail was logged',
} as const;

const isPayload = (value: unknown): value is Payload =>
  !!value && typeof (value as Payload).postId === 'string' && typeof (value as Payload).userId === 'string';

export function sendMentionMail(services: JobServices): Task {
  return async (payload, helpers) => {
    if (!isPayload(payload)) return helpers.logger.error(`send_mention_mail without a post and a user: ${JSON.stringify(payload)}`);
    await deliver(services, payload, helpers);
  };
}

async function deliver(services: JobServices, { postId, userId }: Payload, helpers: Pick<JobHelpers, 'job'>): Promise<void> {
  const { db, config, logger } = services;
  const mention = await db.commentMention.findUnique({ where: { postId_userId: { postId, userId } } });
  // No row: its comment was deleted (the rows go with it). Settled: nothing more to do.
  if (!mention || mention.notifiedAt || mention.skipped) return;
  const skip = async (reason: string) => void (await mark(db, { postId, userId }, { skipped: reason }));

  const comment = await db.comment.findUnique({
    where: { id: mention.commentId },
    include: { space: true, changeRequest: true },
  });
  const reply = postId === mention.commentId ? null : await db.commentReply.findUnique({ where: { id: postId } });
  if (!comment || (postId !== comment.id && !reply)) return skip(MENTION_SKIPPED.postDeleted);
  if (!(await canRead(db, userId, comment.space.organizationId, comment.spaceId, comment.changeRequestId))) return skip(MENTION_SKIPPED.noAccess);
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  const to = user && validEmail(user.email);
  if (!to) return skip(MENTION_SKIPPED.noEmail);

  const body = reply ? reply.body : comment.body;
  const authorId = reply ? reply.authorId : comment.authorId;
  const names = await displayNames(db, comment.space.organizationId, authorId, mentionedUsers(body, 'body', Infinity));
  const cr = comment.changeRequest;
  const base = `${config.publicUrl}/v1/spaces/${comment.spaceId}${cr ? `/change-requests/${cr.id}` : ''}/comments/${comment.id}`;
  const message = mentionEmail({
    authorName: names.get(authorId) ?? '',
    spaceTitle: comment.space.title,
    pageTitle: comment.pageId ? await pageTitle(db, comment.pageId, cr?.revisionId ?? comment.space.revisionId, comment.revisionId) : null,
    changeRequest: cr && { number: cr.number, subject: cr.subject },
    reply: !!reply,
    excerpt: postExcerpt(body, (id) => names.get(id)),
    link: reply ? `${base}/replies/${reply.id}` : base,
  });

  const mailer = services.mailer;
  if (!mailer) throw new Error('The worker has no mailer');
  // The claim: only the run that sets notifiedAt sends.
  const claimedAt = new Date();
  if (!(await mark(db, { postId, userId }, { notifiedAt: claimedAt }))) return;
  const claimed = { postId, userId, notifiedAt: claimedAt };
  try {
    const result = await mailer.send({ to, ...message });
    if (!result.delivered) await db.commentMention.updateMany({ where: claimed, data: { notifiedAt: null, skipped: MENTION_SKIPPED.notSent } });
  } catch (error) {
    const last = helpers.job.attempts >= helpers.job.max_attempts;
    await db.commentMention.updateMany({ where: claimed, data: { notifiedAt: null, skipped: last ? MENTION_SKIPPED.mailFailed : null } });
    if (!last) throw error;
    logger.warn({ postId, userId, attempts: helpers.job.attempts }, 'the mention e-mail could not be sent; giving up');
  }
}

/** Sets `data` on a row still unsettled; answers whether this call did. */
async function mark(db: Db, key: Payload, data: { notifiedAt?: Date; skipped?: string }): Promise<boolean> {
  const { count } = await db.commentMention.updateMany({ where: { ...key, notifiedAt: null, skipped: null }, data });
  return count === 1;
}

/**
 * Whether the user, as a member of the organization would be with their own token (confined to
 * that organization), may view the space and the change request now. Disabled members, removed
 * ones and guests without a grant there have no role on the space: 404, as for their requests.
 */
async function canRead(db: Db, userId: string, organizationId: string, spaceId: string, changeRequestId: string | null): Promise<boolean> {
  const reach = { confinedTo: organizationId };
  const access = new Access(createLoaders(db, userId, reach), userId, reach);
  try {
    if (changeRequestId) await access.requireChangeRequest(spaceId, changeRequestId, 'view');
    else await access.requireSpace(spaceId, 'view');
    return true;
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 404)) return false;
    throw error;
  }
}

function validEmail(email: string): string | null {
  try {
    return normalizeEmail(email, 'email');
  } catch {
    return null;
  }
}

/** The author's name and those of the mentioned members: the name of someone outside the organization is not told. */
async function displayNames(db: Db, organizationId: string, authorId: string, mentioned: string[]): Promise<Map<string, string>> {
  const users = await db.user.findMany({
    where: { OR: [{ id: authorId }, { id: { in: mentioned }, memberships: { some: { organizationId } } }] },
    select: { id: true, displayName: true },
  });
  return new Map(users.map((u) => [u.id, u.displayName]));
}

/** The page's title now (in the space or the change request), or when the comment was written if it is gone since. */
async function pageTitle(db: Db, pageId: string, headRevisionId: string, commentRevisionId: string): Promise<string | null> {
  for (const revisionId of new Set([headRevisionId, commentRevisionId])) {
    const scope = await revisionScope(db, revisionId).catch(() => null);
    const entry = scope && (await entityIn(db, scope, 'page', pageId));
    if (entry) return entry.title;
  }
  return null;
}
