/**
 * Requested reviewers of a change request: users asked to review it. Asking and withdrawing
 * belong to writing the request (the `edit` capability, which a locked space refuses); a merged
 * request is final (409). Every requested user must be a member of the organization who can read
 * the space, and not the request's author (who cannot review it): otherwise a 400 naming `users`.
 *
 * Requests are idempotent: asking a user who is already asked changes nothing (the first request
 * stands). A review by a requested user fulfils their request (reviews.ts): it leaves the list,
 * and asking them again afterwards makes that review outdated.
 */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { Prisma, type ChangeRequestReviewer } from '../../../generated/prisma/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { spaceRoleSql } from '../../access/role-sql.js';
import { badRequest } from '../../../lib/errors.js';
import { countRows } from '../../kernel/pagination/count.js';
import { byTimeThenId, readPage, type Page, type PageArgs, type Queryable } from '../../kernel/pagination/keyset.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { subjectSchema } from './create.js';
import { changeRequestOf, recordChangeRequestEvent } from './events.js';
import { lockChangeRequest } from './line.js';

const { sql } = Prisma;

/**
 * A pending request, and the request's revision when it was made: the latest revision of the
 * request's line created by then (requests and revisions of a request are written under its lock).
 */
export type ReviewerRequestRow = ChangeRequestReviewer & { revisionId: string };

export const MAX_REQUESTED = 100;

const SELECT_REQUESTS = sql`SELECT q."changeRequestId", q."userId", q."requestedById", q."createdAt",
    coalesce((SELECT v."id" FROM "Revision" v WHERE v."lineId" = q."changeRequestId" AND v."createdAt" <= q."createdAt"
      ORDER BY v."seq" DESC LIMIT 1), cr."revisionId") AS "revisionId"
  FROM "ChangeRequestReviewer" q JOIN "ChangeRequest" cr ON cr."id" = q."changeRequestId"`;

/** Oldest request first. */
const inRequestOrder = (changeRequestId: string) =>
  byTimeThenId<ReviewerRequestRow>(`requested-reviewers:${changeRequestId}`, 'q."createdAt"', 'q."userId"', (q) => [q.createdAt, q.userId]);

export function reviewerRequestsPage(db: Queryable, changeRequestId: string, args: PageArgs): Promise<Page<ReviewerRequestRow>> {
  return readPage(db, SELECT_REQUESTS, [sql`q."changeRequestId" = ${changeRequestId}`], inRequestOrder(changeRequestId), args);
}

export function countReviewerRequests(db: Queryable, changeRequestId: string): Promise<number> {
  return countRows(db, sql`"ChangeRequestReviewer" q WHERE q."changeRequestId" = ${changeRequestId}`);
}

/** Every pending request of the request, oldest first (a bounded list: the people asked to review one request). */
export function reviewerRequests(db: Queryable, changeRequestId: string, userIds?: readonly string[]): Promise<ReviewerRequestRow[]> {
  const only = userIds ? sql`AND q."userId" = ANY(${[...userIds]}::text[])` : sql``;
  return db.$queryRaw<ReviewerRequestRow[]>(sql`${SELECT_REQUESTS} WHERE q."changeRequestId" = ${changeRequestId} ${only} ORDER BY q."createdAt", q."userId"`);
}

const requestInput = lazySchema(() => z
  .object({
    users: z
      .array(z.string().min(1).max(64))
      .min(1, 'must list at least one user')
      .max(MAX_REQUESTED, `at most ${MAX_REQUESTED} users at once`),
    /** The REST body may update the subject at the same time. */
    subject: subjectSchema.optional(),
  })
  .strict());

/** The users among `userIds` who are active members of the space's organization and can read it. */
async function readersOfSpace(db: Queryable, spaceId: string, userIds: readonly string[]): Promise<Set<string>> {
  const rows = await db.$queryRaw<{ userId: string; role: string | null }[]>(sql`
    SELECT m."userId", ${spaceRoleSql('m', 's', 'pc')} AS "role"
    FROM "Space" s
    LEFT JOIN "Collection" pc ON pc."id" = s."parentId"
    JOIN "Member" m ON m."organizationId" = s."organizationId" AND m."userId" = ANY(${[...userIds]}::text[])
    WHERE s."id" = ${spaceId}`);
  return new Set(rows.filter((r) => r.role !== null).map((r) => r.userId));
}

/** Asks `users` to review the request (those already asked stay as they were); answers the request's ID and the users. */
export async function requestReviewers(db: Db, access: Access, spaceId: string, idOrNumber: string, raw: unknown): Promise<{ changeRequestId: string; users: string[] }> {
  const data = parseInput(requestInput, raw ?? {});
  const users = [...new Set(data.users)];
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'edit');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest: found, space }) => {
    const { changeRequest } = await lockChangeRequest(tx, found.id);
    const readers = await readersOfSpace(tx, spaceId, users);
    const outsider = users.find((u) => !readers.has(u));
    if (outsider) throw badRequest(`Invalid value for "users": ${outsider} is not a member of the organization who can read the space`, 'users');
    if (users.includes(changeRequest.createdById)) {
      throw badRequest(`Invalid value for "users": ${changeRequest.createdById} is the author of the change request, who cannot review it`, 'users');
    }
    const asked = new Set((await tx.changeRequestReviewer.findMany({ where: { changeRequestId: changeRequest.id, userId: { in: users } }, select: { userId: true } })).map((r) => r.userId));
    await tx.changeRequestReviewer.createMany({
      data: users.map((userId) => ({ changeRequestId: changeRequest.id, userId, requestedById: access.userId, createdAt: new Date() })),
      skipDuplicates: true,
    });
    if (data.subject !== undefined) await tx.changeRequest.update({ where: { id: changeRequest.id }, data: { subject: data.subject } });
    const of = changeRequestOf(space, changeRequest.id, access.userId);
    const added = users.filter((u) => !asked.has(u));
    if (added.length) await recordChangeRequestEvent(tx, 'changeRequestReviewersChanged', of, { added });
    if (data.subject !== undefined) await recordChangeRequestEvent(tx, 'changeRequestUpdated', of, { fields: ['subject'] });
    return { changeRequestId: changeRequest.id, users };
  });
}

/** Withdraws the request for `userId`; answers whether there was one. */
export async function removeReviewer(db: Db, access: Access, spaceId: string, idOrNumber: string, userId: string): Promise<boolean> {
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'edit');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest: found, space }) => {
    const { changeRequest } = await lockChangeRequest(tx, found.id);
    const removed = await tx.$executeRaw`DELETE FROM "ChangeRequestReviewer" WHERE "changeRequestId" = ${changeRequest.id} AND "userId" = ${userId}`;
    if (removed > 0) await recordChangeRequestEvent(tx, 'changeRequestReviewersChanged', changeRequestOf(space, changeRequest.id, access.userId), { removed: [userId] });
    return removed > 0;
  });
}
