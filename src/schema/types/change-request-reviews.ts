/**
 * Reviews, requested reviewers and merge rules: `ChangeRequest.reviews`, `.requestedReviewers`,
 * `.reviewerRequests` and `.mergeable`; the mutations that review and ask for reviews; and the
 * `mergeRules` of organizations and spaces.
 *
 * `Space.permissions.merge` stays role-based (capabilities.ts): whether one request may merge
 * now, rules included, is `ChangeRequest.mergeable`.
 */
import { maySpace } from '../../domain/access/capabilities.js';
import { failingMergeRule } from '../../domain/versions/change-requests/merge-rules.js';
import {
  countReviewerRequests,
  removeReviewer,
  requestReviewers,
  reviewerRequests,
  reviewerRequestsPage,
  type ReviewerRequestRow,
} from '../../domain/versions/change-requests/requested-reviewers.js';
import { countReviews, findReview, reviewsPage, submitReview, type ReviewRow } from '../../domain/versions/change-requests/reviews.js';
import { notFound } from '../../lib/errors.js';
import { markdownToBody } from '../../lib/markdown/index.js';
import { builder } from '../builder.js';
import { pageConnection } from '../connection.js';
import { forgetLoaded, type Context } from '../context.js';
import { apiUrl } from '../urls.js';
import { UserRef } from './user.js';

const user = async (ctx: Context, id: string) => {
  const found = await ctx.loaders.user.load(id);
  if (!found) throw new Error(`User ${id} of a review is missing`);
  return found;
};

export const ChangeRequestReviewStatusEnum = builder.enumType('ChangeRequestReviewStatus', {
  description: 'The verdict of a review of a change request.',
  values: {
    approved: { value: 'approved', description: 'The reviewer approves the revision.' },
    changes_requested: { value: 'changes_requested', description: 'REST: changes-requested' },
  } as const,
});

export const ChangeRequestReviewRef = builder.objectRef<ReviewRow>('ChangeRequestReview').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: "A review of a change request: approved, or changes requested, on the request's revision it names.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    changeRequestId: t.exposeString('changeRequestId', { description: 'The ID of the change request it reviews.' }),
    spaceId: t.exposeString('spaceId', { description: "The ID of the change request's space." }),
    revisionId: t.exposeString('revisionId', { description: 'The revision of the change request it reviewed.' }),
    status: t.field({ description: 'Its verdict: approved, or changes requested.', type: ChangeRequestReviewStatusEnum, resolve: (r) => r.status }),
    outdated: t.exposeBoolean('outdated', {
      description: 'Superseded: the request changed since, or its reviewer reviewed again or was asked again since.',
    }),
    comment: t.exposeString('comment', { nullable: true, description: 'The comment given with the review, in markdown.' }),
    commentDocument: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The comment as a JSON document.',
      resolve: (r) => (r.comment ? markdownToBody(r.comment) : null),
    }),
    reviewer: t.field({ description: 'The user who gave it.', type: UserRef, resolve: (r, _a, ctx) => user(ctx, r.reviewerId) }),
    requestedBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'Who asked for the review (null: given without a request).',
      resolve: (r, _a, ctx) => (r.requestedById ? ctx.loaders.user.load(r.requestedById) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    urls: t.field({
      description: 'Its URLs (in this API; in the app where the app shows it).',
      type: builder.simpleObject('ChangeRequestReviewUrls', { description: 'Where a review of a change request is, in this API.', fields: (u) => ({ location: u.string({ description: 'Its URL in this API (under QUIRE_PUBLIC_URL).' }) }) }),
      resolve: (r, _a, ctx) => ({ location: apiUrl(ctx, `/spaces/${r.spaceId}/change-requests/${r.changeRequestId}/reviews/${r.id}`) }),
    }),
  }),
});

export const ChangeRequestReviewerRequestRef = builder.objectRef<ReviewerRequestRow>('ChangeRequestReviewerRequest').implement({
  description: 'A user asked to review a change request, until they review it or the request is withdrawn.',
  fields: (t) => ({
    user: t.field({ description: 'The user asked to review.', type: UserRef, resolve: (q, _a, ctx) => user(ctx, q.userId) }),
    requestedBy: t.field({ description: 'The user who asked them.', type: UserRef, resolve: (q, _a, ctx) => user(ctx, q.requestedById) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    revisionId: t.exposeString('revisionId', { description: "The change request's revision when the request was made." }),
  }),
});

const Mergeable = builder.simpleObject('ChangeRequestMergeable', {
  description: 'Whether the caller may merge the change request now: the `merge` capability, its status, and the merge rules.',
  fields: (t) => ({
    allowed: t.boolean({ description: 'Whether the caller may merge it now; when false, `failingRule` or `message` says why.' }),
    failingRule: t.string({ nullable: true, description: 'The first merge rule not met (e.g. require_at_least_one_approved_review).' }),
    message: t.string({ nullable: true, description: 'Why the merge is not allowed, when it is not.' }),
  }),
});

builder.prismaObjectFields('ChangeRequest', (t) => ({
  reviews: t.connection({
    type: ChangeRequestReviewRef,
    description: 'Reviews, newest first; `outdated`: only outdated (true) or current (false) ones.',
    args: { outdated: t.arg.boolean({ description: 'True: only outdated reviews; false: only current ones; left out: all.', required: false }) },
    resolve: async (r, args, ctx) => {
      const filter = { outdated: args.outdated ?? null };
      return pageConnection(await reviewsPage(ctx.db, r.id, filter, args), () => countReviews(ctx.db, r.id, filter));
    },
  }),
  review: t.field({ description: 'One of its reviews, by ID; NOT_FOUND if it has none of that ID.',
    type: ChangeRequestReviewRef,
    args: { id: t.arg.id({ description: "The review's ID.", required: true }) },
    resolve: async (r, { id }, ctx) => {
      const review = await findReview(ctx.db, r.id, String(id));
      if (!review) throw notFound('Review');
      return review;
    },
  }),
  requestedReviewers: t.field({
    type: [UserRef],
    description: 'Users asked to review the request who have not reviewed it since, in the order they were asked.',
    resolve: async (r, _a, ctx) => Promise.all((await reviewerRequests(ctx.db, r.id)).map((q) => user(ctx, q.userId))),
  }),
  reviewerRequests: t.connection({
    type: ChangeRequestReviewerRequestRef,
    description: 'The pending review requests, oldest first, with who asked and when.',
    resolve: async (r, args, ctx) => pageConnection(await reviewerRequestsPage(ctx.db, r.id, args), () => countReviewerRequests(ctx.db, r.id)),
  }),
  mergeable: t.field({
    type: Mergeable,
    description: "Whether the caller may merge the request now (the merge rules included); conflicts are the request's `conflicts`.",
    resolve: async (r, _a, ctx) => {
      if (r.status === 'merged' || r.status === 'archived') return { allowed: false, failingRule: null, message: `The change request is ${r.status}` };
      const [space, revision] = await Promise.all([ctx.loaders.space.load(r.spaceId), ctx.loaders.revision.load(r.revisionId)]);
      if (!space || !revision) throw new Error('The space or revision of a change request is missing');
      if (!maySpace('merge', await ctx.access.spaceRole(space), space)) return { allowed: false, failingRule: null, message: 'You are not allowed to merge in this space' };
      const organization = await ctx.loaders.organization.load(space.organizationId);
      const failing = await failingMergeRule(ctx.db, {
        changeRequest: r,
        space,
        organization,
        userId: ctx.viewer.userId,
        upToDate: revision.baseRevisionId === space.revisionId,
      });
      return failing ? { allowed: false, failingRule: failing.rule, message: failing.message } : { allowed: true, failingRule: null, message: null };
    },
  }),
}));

builder.prismaObjectFields('Organization', (t) => ({
  mergeRules: t.field({ type: 'JSON', description: '{type: "none"} or {type: "rules", rules}.', resolve: (o) => o.mergeRules }),
}));

builder.prismaObjectFields('Space', (t) => ({
  mergeRules: t.field({
    type: 'JSON',
    description: "{type: \"inherit\"} (the organization's, the default), {type: \"none\"} or {type: \"rules\", rules}.",
    resolve: (s) => s.mergeRules,
  }),
}));

/** The request's ID after a write (ID or number → ID), its caches forgotten. */
async function changeRequestId(ctx: Context, spaceId: string, idOrNumber: string): Promise<string> {
  forgetLoaded(ctx);
  return (await ctx.access.requireChangeRequest(spaceId, idOrNumber)).changeRequest.id;
}

builder.mutationFields((t) => ({
  submitChangeRequestReview: t.field({
    type: ChangeRequestReviewRef,
    description: "Approves the change request's current revision or asks for changes; needs `review` on the space, and not being its author.",
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      id: t.arg.id({ required: true, description: 'ID or number.' }),
      status: t.arg({ description: 'The verdict: approved, or changes requested.', type: ChangeRequestReviewStatusEnum, required: true }),
      comment: t.arg({ type: 'JSON', required: false, description: '`{markdown}`, `{document: JSONDocument}` or `{}`.' }),
    },
    resolve: async (_root, { spaceId, id, status, comment }, ctx) => {
      const reviewId = await submitReview(ctx.db, ctx.access, String(spaceId), String(id), comment == null ? { status } : { status, comment });
      const review = await findReview(ctx.db, await changeRequestId(ctx, String(spaceId), String(id)), reviewId);
      return review!;
    },
  }),
  requestChangeRequestReviewers: t.field({
    type: [ChangeRequestReviewerRequestRef],
    description: 'Asks users (members who can read the space) to review the change request; those already asked stay as they were. Answers their requests.',
    args: {
      spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }),
      id: t.arg.id({ required: true, description: 'ID or number.' }),
      users: t.arg.idList({ description: 'The IDs of the users to ask (members who can read the space).', required: true }),
      subject: t.arg.string({ required: false, description: 'Updates the subject at the same time.' }),
    },
    resolve: async (_root, { spaceId, id, users, subject }, ctx) => {
      const result = await requestReviewers(ctx.db, ctx.access, String(spaceId), String(id), { users: users.map(String), ...(subject == null ? {} : { subject }) });
      forgetLoaded(ctx);
      return reviewerRequests(ctx.db, result.changeRequestId, result.users);
    },
  }),
  removeChangeRequestReviewer: t.boolean({
    description: 'Withdraws the request for a user to review; false when they were not asked.',
    args: { spaceId: t.arg.id({ required: true, description: 'The space\'s ID.' }), id: t.arg.id({ required: true, description: 'ID or number.' }), userId: t.arg.id({ required: true, description: 'The user\'s ID.' }) },
    resolve: async (_root, { spaceId, id, userId }, ctx) => {
      const removed = await removeReviewer(ctx.db, ctx.access, String(spaceId), String(id), String(userId));
      forgetLoaded(ctx);
      return removed;
    },
  }),
}));
