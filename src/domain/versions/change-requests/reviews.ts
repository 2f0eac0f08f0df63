/**
 * Reviews of change requests: a reviewer approves the request or asks for changes, against the
 * request's current revision. Submitting needs the `review` capability on the space; the author
 * of a request cannot review it (403: a rule about who may, not a malformed input); a merged
 * request refuses reviews (409). Reviews are written under the request's lock (line.ts), like
 * content writes and merges, so a merge's rule check never races a review.
 *
 * A review is `outdated` when it no longer speaks for the request as it is:
 * - the request's revision changed after it (new content, or an update from the space);
 * - its reviewer reviewed again later (only each reviewer's latest review counts);
 * - its reviewer was requested again after it (see requested-reviewers.ts: submitting a review
 *   fulfils the reviewer's pending request, so a request row that exists now was made after
 *   their latest review).
 * The flag is computed in SQL beside each row, so lists can filter on it and stay keyset pages.
 */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import type { JSONDocument } from '../../../lib/documents/types.js';
import { badRequest, forbidden } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { documentToMarkdown } from '../../../lib/markdown/index.js';
import { countRows } from '../../kernel/pagination/count.js';
import { byTimeThenId, readPage, type Page, type PageArgs, type Queryable, type SortKey } from '../../kernel/pagination/keyset.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { bodySchema } from './page-input.js';
import { changeRequestOf, recordChangeRequestEvent } from './events.js';
import { lockChangeRequest } from './line.js';
import { OUTDATED, SELECT_REVIEWS, type ReviewRow } from './review-rows.js';

type Sql = Prisma.Sql;
const { sql, raw, join } = Prisma;

export type { ReviewRow };

/** The longest comment kept, in markdown characters. */
export const COMMENT_MAX = 20_000;

export type ReviewFilter = { outdated?: boolean | null };

function conditions(changeRequestId: string, filter: ReviewFilter): Sql[] {
  return [
    sql`r."changeRequestId" = ${changeRequestId}`,
    ...(filter.outdated === true ? [OUTDATED] : filter.outdated === false ? [sql`NOT ${OUTDATED}`] : []),
  ];
}

/** Newest first (the index on changeRequestId, createdAt, id). */
const newestFirst = (changeRequestId: string, filter: ReviewFilter): SortKey<ReviewRow> =>
  byTimeThenId<ReviewRow>(`reviews:${changeRequestId}:${filter.outdated ?? ''}`, 'r."createdAt"', 'r."id"', (r) => [r.createdAt, r.id], {
    descending: true,
    leading: [raw('r."changeRequestId"')],
  });

export function reviewsPage(db: Queryable, changeRequestId: string, filter: ReviewFilter, args: PageArgs): Promise<Page<ReviewRow>> {
  return readPage(db, SELECT_REVIEWS, conditions(changeRequestId, filter), newestFirst(changeRequestId, filter), args);
}

export function countReviews(db: Queryable, changeRequestId: string, filter: ReviewFilter): Promise<number> {
  return countRows(db, sql`"ChangeRequestReview" r JOIN "ChangeRequest" cr ON cr."id" = r."changeRequestId" WHERE ${join(conditions(changeRequestId, filter), ' AND ')}`);
}

/** One review of the request (null: none with that ID there). */
export async function findReview(db: Queryable, changeRequestId: string, reviewId: string): Promise<ReviewRow | null> {
  const [row] = await db.$queryRaw<ReviewRow[]>(sql`${SELECT_REVIEWS} WHERE r."changeRequestId" = ${changeRequestId} AND r."id" = ${reviewId}`);
  return row ?? null;
}

/** The reviews that still count: each reviewer's latest, if nothing outdated it (merge rules read these). */
export function currentReviews(db: Queryable, changeRequestId: string): Promise<ReviewRow[]> {
  return db.$queryRaw<ReviewRow[]>(sql`${SELECT_REVIEWS} WHERE r."changeRequestId" = ${changeRequestId} AND NOT ${OUTDATED}`);
}

const submitInput = lazySchema(() => z
  .object({
    // GraphQL's enum value, or the REST spelling.
    status: z.enum(['approved', 'changes_requested', 'changes-requested'], { error: 'must be approved or changes-requested' }),
    comment: bodySchema.nullish(),
  })
  .strict());

/** A comment as written (`{markdown}`, `{document}` or `{}`) as the markdown kept (null: none). */
function commentText(comment: z.output<typeof bodySchema> | null | undefined): string | null {
  if (!comment) return null;
  const text = 'markdown' in comment ? comment.markdown : 'document' in comment ? documentToMarkdown(comment.document as JSONDocument) : '';
  const trimmed = text.trim();
  if (trimmed.length > COMMENT_MAX) throw badRequest(`Invalid value for "comment": at most ${COMMENT_MAX} characters of markdown`, 'comment');
  return trimmed || null;
}

/**
 * Submits a review of the request's current revision; answers its ID. A pending request for the
 * reviewer is fulfilled by it: it leaves the requested reviewers, and the review records who asked.
 */
export async function submitReview(db: Db, access: Access, spaceId: string, idOrNumber: string, raw: unknown): Promise<string> {
  const data = parseInput(submitInput, raw ?? {});
  const comment = commentText(data.comment);
  const status = data.status === 'approved' ? 'approved' : 'changes_requested';
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'review');
  const id = newId('ChangeRequestReview');
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest: found, space }) => {
    const { changeRequest } = await lockChangeRequest(tx, found.id);
    if (changeRequest.createdById === access.userId) throw forbidden('The author of a change request cannot review it');
    const [request] = await tx.$queryRaw<{ requestedById: string }[]>`DELETE FROM "ChangeRequestReviewer"
      WHERE "changeRequestId" = ${changeRequest.id} AND "userId" = ${access.userId} RETURNING "requestedById"`;
    await tx.changeRequestReview.create({
      data: {
        id,
        changeRequestId: changeRequest.id,
        revisionId: changeRequest.revisionId,
        reviewerId: access.userId,
        requestedById: request?.requestedById ?? null,
        status,
        comment,
      },
    });
    await recordChangeRequestEvent(tx, 'changeRequestReviewSubmitted', changeRequestOf(space, changeRequest.id, access.userId), { reviewId: id, status });
  });
  return id;
}
